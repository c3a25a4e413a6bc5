import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_TIMEOUT_MS } from "../defaults.js";
import { createInvocation } from "../rpc/invocation.js";
import { attemptTimeoutMs, settingsMethodOf } from "./attempt-timeout.js";

const call = (attachments: Record<string, unknown> = {}, deadline?: number) =>
  createInvocation({
    service: "demo.S",
    method: "sayHello",
    attachments,
    ...(deadline === undefined ? {} : { deadline }),
  });

describe("attempt timeout", () => {
  it("attempt timeout - the call's `timeout` attachment (number or string) wins over the configured one", () => {
    assert.equal(attemptTimeoutMs(call(), 3000), 3000);
    assert.equal(attemptTimeoutMs(call({ timeout: 500 }), 3000), 500);
    assert.equal(attemptTimeoutMs(call({ timeout: "700" }), 3000), 700);
    for (const bad of ["", "abc", "-5", 0, 1.5, null]) {
      assert.equal(attemptTimeoutMs(call({ timeout: bad }), 3000), 3000, `attachment ${String(bad)}`);
    }
  });

  it("attempt timeout - a configured timeout that is not positive means the default, as in Java", () => {
    assert.equal(attemptTimeoutMs(call(), 0), DEFAULT_TIMEOUT_MS);
    assert.equal(attemptTimeoutMs(call(), -1), DEFAULT_TIMEOUT_MS);
  });

  it("attempt timeout - an overall deadline, when set, clamps it (zero or less once it passed)", () => {
    assert.equal(attemptTimeoutMs(call({}, 10_250), 3000, 10_000), 250);
    assert.equal(attemptTimeoutMs(call({}, 90_000), 3000, 10_000), 3000);
    assert.ok(attemptTimeoutMs(call({}, 9_000), 3000, 10_000) <= 0);
  });

  it("attempt timeout - the clock is read only for a call with a deadline", (t) => {
    const clock = t.mock.method(Date, "now");
    attemptTimeoutMs(call({ timeout: 500 }), 3000);
    assert.equal(clock.mock.callCount(), 0, "no deadline: no clock read");
    assert.equal(attemptTimeoutMs(call({}, Date.now() + 90_000), 3000), 3000);
    assert.equal(clock.mock.callCount(), 2, "with a deadline: one read (and the test's own)");
  });

  it("attempt timeout - settings are the called method's, or for $invoke the named method's", () => {
    assert.equal(settingsMethodOf(call()), "sayHello");
    const generic = createInvocation({ service: "demo.S", method: "$invoke", args: ["add", ["int"], [1]] });
    assert.equal(settingsMethodOf(generic), "add");
    assert.equal(
      settingsMethodOf(createInvocation({ service: "demo.S", method: "$invokeAsync", args: [] })),
      "$invokeAsync",
    );
  });
});
