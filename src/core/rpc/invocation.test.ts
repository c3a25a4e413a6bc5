import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NEVER_ABORTED } from "../context/signals.js";
import { createInvocation, deriveInvocation, LazySignalInvocation } from "./invocation.js";

/** A framework-style invocation whose signal is made on first read, counting how often it is made. */
class CountingInvocation extends LazySignalInvocation {
  readonly controller = new AbortController();
  made = 0;

  constructor(attachments: Record<string, unknown> = {}) {
    super({
      service: "com.example.Demo",
      group: undefined,
      version: undefined,
      method: "hello",
      parameterTypes: [],
      returnType: undefined,
      args: ["x"],
      attachments,
      deadline: undefined,
      oneWay: false,
      remoteAddress: "127.0.0.1:1",
      idl: undefined,
    });
  }

  protected currentSignal(): AbortSignal {
    this.made++;
    return this.controller.signal;
  }
}

describe("invocation", () => {
  it("a framework invocation's lazy signal is a getter of its class, not an accessor defined per object", () => {
    const inv = new CountingInvocation();
    assert.equal(Object.getOwnPropertyDescriptor(inv, "signal"), undefined);
    assert.equal(inv.made, 0);
    assert.equal(inv.signal, inv.controller.signal);
    assert.equal(inv.made, 1);
  });

  it("deriveInvocation - a copy of a framework invocation reads its signal only when asked, and aborts with it", () => {
    const origin = new CountingInvocation({ a: 1 });
    const copy = deriveInvocation(origin, { attachments: { b: 2 } });
    const copyOfCopy = deriveInvocation(copy, { method: "other" });
    assert.equal(origin.made, 0, "deriving does not make the signal");
    assert.deepEqual(copyOfCopy.attachments, { b: 2 });
    assert.equal(copyOfCopy.method, "other");
    assert.equal(copyOfCopy.remoteAddress, "127.0.0.1:1");
    assert.deepEqual(copyOfCopy.args, ["x"]);
    const seen = copyOfCopy.signal;
    assert.equal(seen.aborted, false);
    origin.controller.abort(new Error("caller went away"));
    assert.equal(seen.aborted, true);
    assert.equal((copy.signal.reason as Error).message, "caller went away");
  });

  it("deriveInvocation - a signal among the changes replaces the original's", () => {
    const origin = new CountingInvocation();
    const own = new AbortController();
    const copy = deriveInvocation(origin, { signal: own.signal, deadline: 42 });
    assert.equal(copy.signal, own.signal);
    assert.equal(copy.deadline, 42);
    assert.equal(origin.made, 0);
  });

  it("deriveInvocation - a plain invocation is copied with its signal field and the changes", () => {
    const controller = new AbortController();
    const plain = createInvocation({ service: "s", method: "m", signal: controller.signal });
    const copy = deriveInvocation(plain, { attachments: { k: "v" } });
    assert.ok(!(copy instanceof LazySignalInvocation));
    assert.equal(copy.signal, controller.signal);
    assert.deepEqual(copy.attachments, { k: "v" });
    assert.equal(deriveInvocation(plain, { signal: NEVER_ABORTED }).signal, NEVER_ABORTED);
  });
});
