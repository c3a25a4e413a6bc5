import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { BizError, Code, createInvocation, defineService, java, RpcError, Url } from "../../../core/index.js";
import { createBoundedExecutor } from "./executor.js";
import { builtinThreadModel, resolveExecutor } from "./thread-model.js";
import { createWorkerInvoker } from "./worker-invoker.js";

const CPU_MODULE = fileURLToPath(new URL("../../../../test/fault/fixtures/cpu-service.ts", import.meta.url));
const TS_PRELOAD = new URL("../../../../test/fault/fixtures/tsx-preload.mjs", import.meta.url);
const CpuService = defineService("demo.CpuService", {
  spin: { args: [java.int], returns: java.Object },
  fail: { args: [java.String], returns: java.void },
  wait: { args: [java.int], returns: java.int },
});
const URL_ = Url.parse("dubbo://127.0.0.1:0/demo.CpuService?interface=demo.CpuService");

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("dispatch", () => {
  it("executor - runs `threads` at once, queues `queues`, refuses the rest, then drains the queue", async () => {
    const executor = createBoundedExecutor({ threads: 2, queues: 1, description: "test" });
    const gates = [deferred(), deferred(), deferred()];
    const order: number[] = [];
    const task = async (i: number) => {
      order.push(i);
      await gates[i]!.promise;
      return i;
    };
    const a = executor.run(task, 0);
    const b = executor.run(task, 1);
    const c = executor.run(task, 2);
    assert.ok(a && b && c);
    assert.equal(executor.run(task, 3), undefined);
    assert.deepEqual(order, [0, 1]);
    assert.equal(executor.queued, 1);
    gates[0]!.resolve();
    assert.equal(await a, 0);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, [0, 1, 2]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    assert.deepEqual(await Promise.all([b, c]), [1, 2]);
    assert.equal(executor.active, 0);
  });

  it("executor - a task run with runHeld keeps its slot after its promise settles, until release()", async () => {
    const executor = createBoundedExecutor({ threads: 1, queues: 1, description: "test" });
    const started: number[] = [];
    const task = async (i: number) => {
      started.push(i);
      return i;
    };
    const first = executor.runHeld!(task, 0);
    assert.equal(await first, 0);
    await new Promise((r) => setImmediate(r));
    assert.equal(executor.active, 1, "a settled held task still holds its slot");
    const queued = executor.runHeld!(task, 1);
    assert.ok(queued);
    assert.equal(executor.run(task, 2), undefined, "one running and one waiting: full");
    assert.deepEqual(started, [0]);
    executor.release!();
    assert.equal(await queued, 1, "the release started the waiting task");
    assert.deepEqual(started, [0, 1]);
    executor.release!();
    assert.equal(executor.active, 0);
    assert.throws(() => executor.release!(), /release\(\) called with no task started by runHeld\(\) left/);
    assert.equal(executor.active, 0, "a release too many does not free a slot nobody holds");
    assert.equal(await executor.run(task, 3), 3);
    await new Promise((r) => setImmediate(r));
    assert.equal(executor.active, 0, "a task run with run frees its slot itself");
  });

  it("resolveExecutor - Java's defaults and names; unknown names fail listing the registered ones", () => {
    const model = builtinThreadModel();
    const resolve = (url: Url) => resolveExecutor(url, model);
    assert.match(resolve(URL_).description, /threadpool=fixed threads=200 queues=0/);
    assert.match(resolve(URL_.withParams({ threadpool: "cached" })).description, /threads=unbounded/);
    assert.equal(resolve(URL_.withParams({ dispatcher: "direct" })).description, "dispatcher=direct");
    assert.throws(
      () => resolve(URL_.withParams({ threadpool: "huge" })),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.InvalidArgument &&
        /registered: fixed, limited, cached/.test(e.message),
    );
    assert.throws(() => resolve(URL_.withParams({ dispatcher: "nope" })), /all, direct, message/);
    assert.throws(() => resolve(URL_.withParams({ threads: "0" })), /at least 1/);
    model.threadPool.register("mine", () =>
      createBoundedExecutor({ threads: 1, queues: 0, description: "mine" }),
    );
    assert.equal(resolve(URL_.withParams({ threadpool: "mine" })).description, "mine");
  });

  describe("worker pool", () => {
    const invoker = createWorkerInvoker(
      CpuService,
      { module: CPU_MODULE, exportName: "cpuService", threads: 2, queues: 1, preload: [TS_PRELOAD] },
      URL_,
    );
    after(() => invoker.destroy());
    const call = (method: string, args: unknown[]) =>
      invoker.invoke(createInvocation({ service: "demo.CpuService", method, args }));

    it("worker - runs the service in worker threads, not on the main thread", async () => {
      const result = await call("spin", [1000]);
      const value = result.value as { sum: number; thread: number };
      assert.equal(value.sum, 499500);
      assert.notEqual(value.thread, 0);
    });

    it("worker - a thrown error comes back as a BizError naming the JS error", async () => {
      await assert.rejects(
        call("fail", ["bad input"]),
        (e: unknown) => e instanceof BizError && e.message === "RangeError: bad input",
      );
    });

    it("worker - busy workers and a full queue refuse the call as ResourceExhausted", async () => {
      const running = [call("wait", [200]), call("wait", [200]), call("wait", [10])];
      await assert.rejects(
        call("wait", [1]),
        (e: unknown) => e instanceof RpcError && e.code === Code.ResourceExhausted,
      );
      const threads = new Set((await Promise.all(running)).map((r) => r.value));
      assert.equal(threads.size, 2);
    });

    it("worker - a module that cannot load fails calls with a clear error", async () => {
      const broken = createWorkerInvoker(
        CpuService,
        { module: CPU_MODULE, exportName: "nothing", threads: 1, preload: [TS_PRELOAD] },
        URL_,
      );
      try {
        await assert.rejects(
          broken.invoke(createInvocation({ service: "demo.CpuService", method: "spin", args: [1] })),
          (e: unknown) =>
            e instanceof RpcError && /could not load/.test(e.message) && /nothing/.test(e.message),
        );
      } finally {
        await broken.destroy();
      }
    });
  });
});
