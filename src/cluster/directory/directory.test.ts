import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createInvocation, Url } from "../../core/index.js";
import { createFakeInvokers } from "../../testing/index.js";
import type { Router } from "../contracts.js";
import { StaticDirectory } from "./static-directory.js";

const url = Url.parse("consumer://127.0.0.1/com.example.DemoService?interface=com.example.DemoService");
const inv = createInvocation({ service: "com.example.DemoService", method: "find" });

function dropPort(name: string, priority: number, port: number, seen: string[]): Router {
  return {
    name,
    priority,
    url: undefined,
    route: (list) => {
      seen.push(name);
      return list.filter((i) => i.url.port !== port);
    },
    notify: () => void seen.push(`notify:${name}`),
  };
}

describe("directory", () => {
  it("directory - applies routers by priority on every list and explains exclusions", () => {
    const invokers = createFakeInvokers(3);
    const seen: string[] = [];
    const dir = new StaticDirectory(url, invokers, [
      dropPort("b", 10, 20881, seen),
      dropPort("a", 1, 20880, seen),
    ]);
    assert.deepEqual(seen, ["notify:a", "notify:b"]);
    seen.length = 0;
    assert.deepEqual(dir.list(inv), [invokers[2]]);
    assert.deepEqual(seen, ["a", "b"]);
    assert.deepEqual(dir.all(), invokers);
    const why = dir.explain(inv);
    assert.deepEqual(why.get("127.0.0.1:20880"), { kind: "router", router: "a" });
    assert.deepEqual(why.get("127.0.0.1:20881"), { kind: "router", router: "b" });
    assert.equal(why.has("127.0.0.1:20882"), false);
  });

  it("directory - swaps an immutable snapshot; a list taken before stays intact", () => {
    const invokers = createFakeInvokers(3);
    const dir = new StaticDirectory(url, invokers.slice(0, 2));
    const before = dir.list(inv);
    assert.ok(Object.isFrozen(before));
    dir.setInvokers(invokers);
    assert.equal(before.length, 2);
    assert.equal(dir.list(inv).length, 3);
    for (const i of invokers) i.setAvailable(false);
    assert.equal(dir.isAvailable(), false);
  });

  it("directory - destroyed directory refuses to list and destroys its invokers", async () => {
    const invokers = createFakeInvokers(2);
    const dir = new StaticDirectory(url, invokers);
    await dir.destroy();
    assert.ok(invokers.every((i) => i.destroyed));
    assert.throws(() => dir.list(inv), /destroyed/);
  });
});
