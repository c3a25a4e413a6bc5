import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BizError, Code, createInvocation, RpcError } from "../core/index.js";
import { FakeInvoker } from "./fake-invoker.js";
import { createSeededRandom } from "./seeded-random.js";

const inv = createInvocation({ service: "com.example.DemoService", method: "m" });

describe("testing", () => {
  it("fake invoker - follows its script, then the default, counting calls", async () => {
    const fake = new FakeInvoker({ address: "127.0.0.1:1" }).failTimes(2).throwBizError("b", "com.x.E");
    await assert.rejects(
      fake.invoke(inv),
      (e: unknown) => e instanceof RpcError && e.code === Code.Unavailable,
    );
    await assert.rejects(fake.invoke(inv), RpcError);
    await assert.rejects(
      fake.invoke(inv),
      (e: unknown) => e instanceof BizError && e.javaClass === "com.x.E",
    );
    assert.equal((await fake.invoke(inv)).value, "127.0.0.1:1");
    assert.equal(fake.calls, 4);
  });

  it("fake invoker - hangs until the invocation is aborted", async () => {
    const fake = new FakeInvoker().hangTimes(1);
    const controller = new AbortController();
    const pending = fake.invoke({ ...inv, signal: controller.signal });
    assert.equal(fake.inFlight, 1);
    controller.abort();
    await assert.rejects(pending, (e: unknown) => e instanceof RpcError && e.code === Code.Canceled);
    assert.equal(fake.aborted, 1);
    assert.equal(fake.inFlight, 0);
  });

  it("seeded random - same seed, same sequence, in [0, 1)", () => {
    const a = createSeededRandom(5);
    const b = createSeededRandom(5);
    for (let i = 0; i < 100; i++) {
      const x = a();
      assert.equal(x, b());
      assert.ok(x >= 0 && x < 1);
    }
  });
});
