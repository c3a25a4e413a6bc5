import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import { createInvocation } from "../rpc/invocation.js";
import { resultOf } from "../rpc/result.js";
import { invokeInProviderContext } from "./provider-scope.js";
import { currentRpcContext, getRpcContext, runWithRpcContext } from "./rpc-context.js";
import { cancelableSignal, canceledError, NEVER_ABORTED, raceSignal } from "./signals.js";

describe("rpc context", () => {
  it("context - follows the code across await and timers", async () => {
    await runWithRpcContext(async (ctx) => {
      ctx.setAttachment("traceId", "t-1");
      await nextTurn();
      await new Promise((resolve) => setTimeout(resolve, 1));
      assert.equal(getRpcContext(), ctx);
      assert.equal(getRpcContext().getAttachment("traceId"), "t-1");
    });
    assert.equal(currentRpcContext(), undefined);
  });

  it("context - concurrent scopes never see each other's attachments", async () => {
    const seen = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        runWithRpcContext(async (ctx) => {
          ctx.setAttachment("n", i);
          for (let turn = 0; turn < 3; turn++) await nextTurn();
          return getRpcContext().getAttachment("n");
        }),
      ),
    );
    assert.deepEqual(
      seen,
      Array.from({ length: 20 }, (_, i) => i),
    );
  });

  it("context - a nested scope starts from a copy and does not leak outward", async () => {
    await runWithRpcContext(async (outer) => {
      outer.setAttachment("a", "1");
      await runWithRpcContext(async (inner) => {
        assert.equal(inner.getAttachment("a"), "1");
        inner.setAttachment("b", "2");
      });
      assert.equal(outer.getAttachment("b"), undefined);
    });
  });

  it("context - a snapshot stays as it was after later changes, in this scope and in a nested one", () => {
    runWithRpcContext((outer) => {
      outer.setAttachment("a", "1");
      const first = outer.attachments;
      assert.ok(Object.isFrozen(first));
      assert.equal(outer.attachments, first, "unchanged attachments give the same snapshot");
      runWithRpcContext((inner) => {
        inner.setAttachment("b", "2");
        inner.removeAttachment("a");
        assert.deepEqual(inner.attachments, { b: "2" });
      });
      outer.setAttachment("c", "3");
      assert.deepEqual(first, { a: "1" });
      assert.deepEqual(outer.attachments, { a: "1", c: "3" });
      assert.equal(outer.removeAttachment("missing"), false);
      assert.equal(outer.getAttachment("toString"), undefined, "only own attachments are read");
    });
  });

  it("context - an attachment named __proto__ is an attachment, never the snapshot's prototype", () => {
    runWithRpcContext((ctx) => {
      ctx.setAttachment("__proto__", "x");
      assert.equal(ctx.getAttachment("__proto__"), "x");
      assert.equal(Object.getPrototypeOf(ctx.attachments), Object.prototype);
      assert.deepEqual(Object.keys(ctx.attachments), ["__proto__"]);
    });
  });

  it("context - getRpcContext outside any scope explains how to open one", () => {
    assert.throws(
      () => getRpcContext(),
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.FailedPrecondition && /runWithRpcContext/.test(e.message),
    );
  });

  it("context - a provider call sees the request's user attachments and returns response attachments", async () => {
    const inv = createInvocation({
      service: "com.foo.S",
      method: "m",
      attachments: { traceId: "t-9", path: "com.foo.S", version: "1.0.0", timeout: "1000" },
      remoteAddress: "10.0.0.1:5000",
    });
    const result = await invokeInProviderContext(inv, "10.0.0.2:20880", async () => {
      await nextTurn();
      const ctx = getRpcContext();
      assert.equal(ctx.side, "provider");
      assert.deepEqual(ctx.attachments, { traceId: "t-9" });
      assert.equal(ctx.remoteAddress, "10.0.0.1:5000");
      assert.equal(ctx.localAddress, "10.0.0.2:20880");
      assert.equal(ctx.invocation, inv);
      ctx.setResponseAttachment("served-by", "p1");
      return resultOf("ok", { fromResult: "x" });
    });
    assert.deepEqual(result, { value: "ok", attachments: { fromResult: "x", "served-by": "p1" } });
  });

  it("context - a consumer scope cannot set response attachments", async () => {
    await runWithRpcContext((ctx) => {
      assert.throws(() => ctx.setResponseAttachment("k", "v"), /only inside a provider call/);
    });
  });
});

describe("signals", () => {
  it("signals - raceSignal rejects with the mapped reason on abort and keeps the late promise handled", async () => {
    const c = new AbortController();
    let rejectLate: (e: unknown) => void = () => {};
    const late = new Promise((_, reject) => {
      rejectLate = reject;
    });
    const raced = raceSignal(late, c.signal, (reason) => canceledError("demo.S.hello", reason));
    c.abort();
    await assert.rejects(
      raced,
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.Canceled && /demo\.S\.hello was canceled/.test(e.message),
    );
    rejectLate(new Error("late failure"));
    await nextTurn();
    assert.equal(await raceSignal(Promise.resolve(7), new AbortController().signal, (r) => r), 7);
  });

  it("signals - a timeout reason (AbortSignal.timeout) cancels with DeadlineExceeded, others with Canceled", async () => {
    const timedOut = AbortSignal.timeout(1);
    // AbortSignal.timeout's timer does not hold the event loop open; this one does until it fires.
    const holdLoopOpen = setInterval(() => {}, 1000);
    try {
      await new Promise((resolve) => timedOut.addEventListener("abort", resolve));
    } finally {
      clearInterval(holdLoopOpen);
    }
    assert.equal(canceledError("x", timedOut.reason).code, Code.DeadlineExceeded);
    assert.equal(canceledError("x", "user gave up").code, Code.Canceled);
    assert.equal(cancelableSignal(NEVER_ABORTED), undefined);
    assert.equal(cancelableSignal(timedOut), timedOut);
  });
});
