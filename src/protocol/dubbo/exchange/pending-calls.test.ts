import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Code, DeadlineTimers, RpcError } from "../../../core/index.js";
import { createPendingCalls, RAW_RESPONSE } from "./pending-calls.js";

const call = { service: "demo.S", method: "sayHello" };

describe("pending calls", () => {
  it("pending calls - a call reads the clock once, for its start and its deadline both", (t) => {
    const pending = createPendingCalls("127.0.0.1:1", new DeadlineTimers({ keepAlive: false }));
    const precise = t.mock.method(performance, "now");
    const wall = t.mock.method(Date, "now");
    const answered = pending.add(7, call, 60_000, undefined, RAW_RESPONSE);
    assert.equal(precise.mock.callCount() + wall.mock.callCount(), 1);
    const body = Buffer.alloc(0);
    assert.equal(pending.resolve(7, 2, body), true);
    return answered.then((got) => assert.deepEqual(got, { id: 7, status: 20, serializationId: 2, body }));
  });

  it("pending calls - a timeout names the whole milliseconds the call waited", async () => {
    const pending = createPendingCalls("127.0.0.1:1", new DeadlineTimers({ keepAlive: true }));
    await assert.rejects(pending.add(1, call, 30, undefined, RAW_RESPONSE), (error: unknown) => {
      assert.ok(error instanceof RpcError && error.code === Code.DeadlineExceeded);
      assert.match(
        error.message,
        /demo\.S\.sayHello to 127\.0\.0\.1:1 timed out after \d+ ms \(timeout 30 ms\)/,
      );
      return true;
    });
    assert.equal(pending.size, 0);
  });

  it("pending calls - a settled call's value is not kept by the table once the caller drops it", async () => {
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const pending = createPendingCalls("127.0.0.1:1", new DeadlineTimers({ keepAlive: false }));
    const held = await (async () => {
      const answered = pending.add(3, call, 60_000, undefined, () => ({ payload: Buffer.alloc(1024) }));
      pending.resolve(3, 2, Buffer.alloc(0));
      return new WeakRef(await answered);
    })();
    await nextTurn();
    collect();
    assert.equal(held.deref(), undefined, "the last call's promise (and its value) is still reachable");
  });
});
