import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import { createInvocation, deriveInvocation } from "../rpc/invocation.js";
import { CallControl } from "./call-control.js";
import { CALL_COMPLETED } from "./signals.js";

describe("call control", () => {
  it("call control - the deadline rejects a pending race with the timeout reason", async () => {
    const control = new CallControl(5, () => new RpcError("too slow", Code.DeadlineExceeded));
    assert.ok(control.deadline !== undefined);
    const never = new Promise<never>(() => {});
    await assert.rejects(
      control.race(never),
      (e: unknown) => e instanceof RpcError && e.rawMessage === "too slow",
    );
    assert.equal(control.signal.aborted, true, "a signal read after the deadline is already aborted");
    assert.equal((control.signal.reason as RpcError).code, Code.DeadlineExceeded);
  });

  it("call control - a signal read before completion aborts with CALL_COMPLETED on done", async () => {
    const control = new CallControl(1000);
    const signal = control.signal;
    assert.equal(await control.race(Promise.resolve("v")), "v");
    control.done();
    assert.equal(signal.aborted, true);
    assert.equal(signal.reason, CALL_COMPLETED);
  });

  it("call control - no timeout means no deadline and the race is the call itself", async () => {
    const control = new CallControl(0);
    assert.equal(control.deadline, undefined);
    const p = Promise.resolve(1);
    assert.equal(control.race(p), p);
    control.done();
  });

  it("call control - derived invocations share the original's lazy signal", () => {
    const control = new CallControl(1000);
    const base = { ...createInvocation({ service: "S", method: "m" }) };
    const lazy = Object.defineProperty(base, "signal", { get: () => control.signal, enumerable: true });
    const derived = deriveInvocation(lazy, { remoteAddress: "127.0.0.1:0" });
    assert.equal(derived.remoteAddress, "127.0.0.1:0");
    assert.equal(derived.method, "m");
    assert.equal(derived.signal, control.signal);
    control.done();
  });
  it("call control - settle maps the value and completes the call's signal", async () => {
    const control = new CallControl(1000);
    const signal = control.signal;
    assert.equal(await control.settle(Promise.resolve(2), (n) => n * 10), 20);
    assert.equal(signal.aborted, true);
    assert.equal(signal.reason, CALL_COMPLETED);
  });

  it("call control - settle rejects with the deadline first, and a later rejection stays handled", async () => {
    const control = new CallControl(5, () => new RpcError("too slow", Code.DeadlineExceeded));
    let fail: (error: Error) => void = () => {};
    const late = new Promise<number>((_resolve, reject) => {
      fail = reject;
    });
    await assert.rejects(
      control.settle(late, (n) => n),
      (e: unknown) => e instanceof RpcError && e.rawMessage === "too slow",
    );
    fail(new Error("late failure"));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it("call control - settle passes the call's rejection and a throw from map", async () => {
    await assert.rejects(
      new CallControl(1000).settle(Promise.reject(new Error("boom")), (n) => n),
      /boom/,
    );
    await assert.rejects(
      new CallControl(0).settle(Promise.resolve(1), () => {
        throw new Error("bad map");
      }),
      /bad map/,
    );
  });
});
