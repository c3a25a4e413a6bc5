import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DeadlineTimers, type Protocol, silentLogger } from "../core/index.js";
import { createExtensions, type ProtocolFactory } from "./extensions.js";
import { ProtocolSet } from "./protocol-set.js";

/** A protocol factory that records the timers its application handed it. */
function recording(name: string, seen: DeadlineTimers[]): ProtocolFactory {
  return (context) => {
    seen.push(context.deadlines);
    const protocol: Protocol = {
      name,
      defaultPort: 0,
      export: () => Promise.reject(new Error("not used")),
      refer: () => Promise.reject(new Error("not used")),
      destroy: async () => {},
    };
    return protocol;
  };
}

describe("protocol set", () => {
  it("protocols - every protocol of one application runs its timeouts on the application's one timer wheel", () => {
    const seen: DeadlineTimers[] = [];
    const sets = [0, 1].map(() => {
      const extensions = createExtensions({ logger: silentLogger });
      extensions.protocol
        .register("first", recording("first", seen))
        .register("second", recording("second", seen));
      return new ProtocolSet(extensions, silentLogger);
    });
    for (const set of sets) {
      set.get("first", "test");
      set.get("second", "test");
    }
    const [a1, a2, b1, b2] = seen;
    assert.equal(a1, a2, "two protocols of one application share its timers");
    assert.equal(b1, b2);
    assert.notEqual(a1, b1, "two applications never share timers");
  });
});
