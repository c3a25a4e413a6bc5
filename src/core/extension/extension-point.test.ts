import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import { ExtensionPoint } from "./extension-point.js";

describe("ExtensionPoint", () => {
  it("get - returns the named extension, or the default for an empty name", () => {
    const point = new ExtensionPoint<string>("loadbalance", "random")
      .register("random", "R")
      .register("roundrobin", "RR");
    assert.equal(point.get("roundrobin"), "RR");
    assert.equal(point.get(), "R");
    assert.equal(point.get(""), "R");
  });

  it("get - an unknown name fails and lists what is registered", () => {
    const point = new ExtensionPoint<string>("loadbalance", "random")
      .register("random", "R")
      .register("roundrobin", "RR");
    assert.throws(
      () => point.get("leastactiv"),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.FailedPrecondition &&
        e.rawMessage === 'no loadbalance named "leastactiv" (registered: random, roundrobin)',
    );
    assert.throws(
      () => point.assertKnown("x", "reference.loadbalance"),
      /reference.loadbalance="x" names no loadbalance/,
    );
  });

  it("register - refuses duplicates and bad names unless replacing", () => {
    const point = new ExtensionPoint<number>("cluster").register("failover", 1);
    assert.throws(() => point.register("failover", 2), /already registered/);
    assert.equal(point.register("failover", 2, { replace: true }).get("failover"), 2);
    assert.throws(() => point.register("-x", 3), /invalid/);
    assert.throws(() => point.register("a,b", 3), /invalid/);
  });

  it("fork - changes to a fork never reach the original", () => {
    const point = new ExtensionPoint<number>("cluster", "failover").register("failover", 1);
    const fork = point.fork().register("mine", 2);
    assert.deepEqual(fork.names(), ["failover", "mine"]);
    assert.deepEqual(point.names(), ["failover"]);
  });
});
