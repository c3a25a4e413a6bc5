import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Invoker, type Protocol, silentLogger, Url } from "../../core/index.js";
import { createSeededRandom, FakeInvoker } from "../../testing/index.js";
import type { ListChange, Registry } from "../registry.js";
import { RegistryDirectory } from "./index.js";

const SERVICE = "com.example.DemoService";
const CONSUMER = Url.parse(
  `consumer://10.1.1.1/${SERVICE}?application=shop&interface=${SERVICE}&side=consumer&protocol=dubbo&methods=sayHello`,
);

/** Provider `n`: every seventh registers itself disabled, every eleventh speaks another protocol. */
function provider(n: number): Url {
  const protocol = n % 11 === 0 ? "rest" : "dubbo";
  const disabled = n % 7 === 0 ? "&disabled=true" : "";
  const retries = n % 5 === 0 ? "&retries=4" : "";
  return Url.parse(
    `${protocol}://10.0.${n >> 8}.${n & 255}:20880/${SERVICE}?interface=${SERVICE}&side=provider&weight=${100 + n}${disabled}${retries}`,
  );
}

const nothing = async (): Promise<void> => {};
/** The directories here are notified by hand; their registry is never asked. */
const registry: Registry = {
  url: Url.parse("fake://127.0.0.1:1"),
  ...{ register: nothing, unregister: nothing, subscribe: nothing, unsubscribe: nothing },
  ...{ lookup: async () => [], isAvailable: () => true, destroy: nothing },
};

/** Refers FakeInvokers; a refer of an address in `failing` fails once. */
function protocolWith(failing: Set<string>): Protocol {
  return {
    name: "dubbo",
    defaultPort: 20880,
    export: async () => {
      throw new Error("not used");
    },
    refer: async (url) => {
      if (failing.delete(url.address)) throw new Error(`refer of ${url.address} fails once`);
      return new FakeInvoker({ url });
    },
    destroy: async () => {},
  };
}

/** The change that turns `before` into `after`, as the ZooKeeper registry places it (common head and tail). */
function changeOf(before: readonly Url[], after: readonly Url[]): ListChange {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let beforeEnd = before.length;
  let afterEnd = after.length;
  while (beforeEnd > start && afterEnd > start && before[beforeEnd - 1] === after[afterEnd - 1]) {
    beforeEnd--;
    afterEnd--;
  }
  return {
    category: "providers",
    before,
    after,
    start,
    removed: before.slice(start, beforeEnd),
    added: after.slice(start, afterEnd),
  };
}

function viewOf(directory: RegistryDirectory) {
  return {
    invokers: directory.all().map((i) => i.url.toFullString()),
    excluded: [...directory.excluded()],
    url: directory.overriddenUrl.toFullString(),
  };
}

/**
 * Applies 60 seeded steps (adds, removes, moves, replacements, a refer that fails once) as changes
 * to one directory and as full lists to another, and checks after each that both show the same
 * invokers, exclusions and reference URL, and that every kept invoker is the same object.
 */
async function changesEndWhereFullListsDo(providerOf: (n: number) => Url): Promise<void> {
  const failing = new Set<string>();
  const options = { consumerUrl: CONSUMER, registry, logger: silentLogger };
  const changed = new RegistryDirectory({ ...options, protocol: protocolWith(failing) });
  const full = new RegistryDirectory({ ...options, protocol: protocolWith(new Set()) });
  const next01 = createSeededRandom(14);
  const random = (below: number): number => Math.floor(next01() * below);
  let next = 0;
  let list: Url[] = [];
  for (; next < 40; next++) list.push(providerOf(next));
  changed.notify(list);
  full.notify(list);
  await Promise.all([changed.settled(), full.settled()]);
  for (let step = 0; step < 60; step++) {
    const after = [...list];
    const kind = step % 5;
    if (kind === 0) after.splice(random(after.length + 1), 0, providerOf(next++));
    else if (kind === 1) after.splice(random(after.length), 1);
    else if (kind === 2) after.splice(random(after.length + 1), 0, ...after.splice(random(after.length), 1));
    else if (kind === 3) after.splice(random(after.length), 2, providerOf(next++), providerOf(next++));
    else {
      // A refer that fails leaves a provider out; the next change is then applied as the full list.
      const added = providerOf(next++);
      if (step % 10 === 4) failing.add(added.address);
      after.splice(random(after.length + 1), 0, added);
    }
    const kept = new Map(changed.all().map((i): [string, Invoker] => [i.url.toFullString(), i]));
    changed.notifyChange(changeOf(list, after));
    full.notify(after);
    await Promise.all([changed.settled(), full.settled()]);
    list = after;
    const view = viewOf(changed);
    if (step % 10 !== 4) assert.deepEqual(view, viewOf(full), `step ${step}`);
    for (const invoker of changed.all()) {
      const before = kept.get(invoker.url.toFullString());
      if (before !== undefined) assert.equal(invoker, before, `step ${step}: ${invoker.url.address} kept`);
    }
  }
  await Promise.all([changed.destroy(), full.destroy()]);
}

/** Provider `n` of one uniform set (all wanted, the same parameter names): the first one's `timeout` is the reference's. */
function uniformProvider(n: number): Url {
  return Url.parse(
    `dubbo://10.0.${n >> 8}.${n & 255}:20880/${SERVICE}?interface=${SERVICE}&side=provider&weight=${100 + n}&timeout=${1000 + n}`,
  );
}

describe("registry directory changes", () => {
  test("registry directory changes - adds, removes and moves applied as changes end where full lists do; kept invokers keep their identity", async () => {
    await changesEndWhereFullListsDo(provider);
  });

  test("registry directory changes - changes among uniform providers (the lists spliced, not rebuilt) end where full lists do", async () => {
    await changesEndWhereFullListsDo(uniformProvider);
  });

  test("registry directory changes - a change after a rule change, or one that does not start from the listed providers, is applied as the full list", async () => {
    const directory = new RegistryDirectory({
      consumerUrl: CONSUMER,
      registry,
      protocol: protocolWith(new Set()),
      logger: silentLogger,
    });
    const list = [provider(1), provider(2), provider(3)];
    directory.notify(list);
    await directory.settled();
    // `before` is not what the directory lists: the change's `after` is taken whole.
    const stale = changeOf([provider(8), provider(9)], [provider(8), provider(4)]);
    directory.notifyChange(stale);
    await directory.settled();
    assert.deepEqual(
      directory.all().map((i) => i.url.address),
      ["10.0.0.8:20880", "10.0.0.4:20880"],
    );
    directory.notify([
      Url.parse(`override://0.0.0.0/${SERVICE}?category=configurators&dynamic=false&weight=7`),
    ]);
    const after = [...stale.after, provider(6)];
    directory.notifyChange(changeOf(stale.after, after));
    await directory.settled();
    assert.deepEqual(
      directory.all().map((i) => [i.url.address, i.url.get("weight")]),
      [
        ["10.0.0.8:20880", "7"],
        ["10.0.0.4:20880", "7"],
        ["10.0.0.6:20880", "7"],
      ],
    );
    await directory.destroy();
  });
});
