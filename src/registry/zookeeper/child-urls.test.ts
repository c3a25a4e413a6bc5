import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { silentLogger, Url } from "../../core/index.js";
import { ChildNames } from "./child-names.js";
import { ChildUrls } from "./child-urls.js";

const SERVICE = "com.test.ChildUrls";
const subscription = Url.parse(
  `consumer://127.0.0.1/${SERVICE}?interface=${SERVICE}&category=providers,configurators,routers`,
);
const child = (i: number): string =>
  Url.parse(`dubbo://10.0.${i >> 8}.${i & 255}:20880/${SERVICE}?interface=${SERVICE}&weight=100`).encode();

describe("child urls", () => {
  test("child urls - a change of one child parses that child only; the others keep their Url objects", () => {
    const childUrls = new ChildUrls(subscription, "/dubbo", silentLogger);
    const children = [child(1), child(2)];
    const first = childUrls.urls(ChildNames.of(children));
    const second = childUrls.urls(ChildNames.of([...children, child(3)]));
    assert.equal(second.length, 3);
    assert.equal(second[0], first[0]);
    assert.equal(second[1], first[1]);
    assert.equal(childUrls.urls(ChildNames.of(children.slice(1)))[0], first[1], "a removal parses nothing");
  });

  test("child urls - a child added or removed mid-list, or a reordered list, keeps every other Url object", () => {
    const childUrls = new ChildUrls(subscription, "/dubbo", silentLogger);
    const children = Array.from({ length: 6 }, (_, i) => child(i));
    const first = childUrls.urls(ChildNames.of(children));
    const added = childUrls.urls(ChildNames.of([...children.slice(0, 3), child(9), ...children.slice(3)]));
    assert.deepEqual(
      added.map((u) => u.host),
      ["10.0.0.0", "10.0.0.1", "10.0.0.2", "10.0.0.9", "10.0.0.3", "10.0.0.4", "10.0.0.5"],
    );
    const same = (urls: readonly Url[], expected: readonly (Url | undefined)[]): boolean =>
      urls.length === expected.length && urls.every((u, i) => u === expected[i]);
    assert.ok(
      same(
        added.filter((u) => u.host !== "10.0.0.9"),
        first,
      ),
    );
    const removed = childUrls.urls(ChildNames.of([...children.slice(0, 2), ...children.slice(3)]));
    assert.ok(same(removed, [first[0], first[1], first[3], first[4], first[5]]));
    const reordered = childUrls.urls(
      ChildNames.of([...children.slice(0, 2), ...children.slice(3)].reverse()),
    );
    assert.ok(same(reordered, [first[5], first[4], first[3], first[1], first[0]]));
  });

  test("child urls - prepare parses a large first read over several event-loop turns", async () => {
    const childUrls = new ChildUrls(subscription, "/dubbo", silentLogger);
    const children = ChildNames.of(Array.from({ length: 1500 }, (_, i) => child(i)));
    let turnRan = false;
    setImmediate(() => {
      turnRan = true;
    });
    const ranBeforeTheEnd = await childUrls.prepare(children).then(() => turnRan);
    assert.equal(ranBeforeTheEnd, true, "the event loop ran while 1 500 children were parsed");
    const urls = childUrls.urls(children);
    assert.equal(urls.length, 1500);
    assert.equal(childUrls.urls(children)[0], urls[0]);
  });

  test("child urls - a change among skipped children gives the URLs a fresh read gives, and a splice of the URLs before", () => {
    // Every fourth child is skipped: another interface, or no URL at all.
    const named = (i: number): string =>
      i % 8 === 3 ? `not-a-url-${i}` : i % 4 === 1 ? child(i).replace(SERVICE, "com.test.Other") : child(i);
    const childUrls = new ChildUrls(subscription, "/dubbo", silentLogger);
    let names = Array.from({ length: 30 }, (_, i) => named(i));
    childUrls.urls(ChildNames.of(names));
    const changes = [
      (n: string[]) => [...n.slice(0, 9), named(40), ...n.slice(9)],
      (n: string[]) => [...n.slice(0, 5), ...n.slice(7)],
      (n: string[]) => [...n.slice(0, 17), named(41), named(42), ...n.slice(18)],
      (n: string[]) => [named(43), ...n],
      (n: string[]) => n.slice(0, -3),
    ];
    for (const [step, change] of changes.entries()) {
      const next = change(names);
      const fresh = new ChildUrls(subscription, "/dubbo", silentLogger).urls(ChildNames.of(next));
      const { urls, change: where } = childUrls.read(ChildNames.of(next), undefined, undefined);
      assert.deepEqual(urls.map(String), fresh.map(String), `step ${step}`);
      assert.ok(where !== undefined, `step ${step} is a change`);
      const spliced = [...where.before];
      spliced.splice(where.start, where.removed.length, ...where.added);
      assert.deepEqual(spliced, urls, `step ${step}: before spliced`);
      names = next;
    }
  });
});
