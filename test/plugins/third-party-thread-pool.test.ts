// A thread pool written against the public API only: a service whose protocol names it runs every
// call through it, and a name nobody registered fails the export, listing the registered ones.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, createDubbo, defineService, java, RpcError, silentLogger } from "dubbo-ts";
import { createBoundedExecutor, type Executor, type Plugin, type ThreadPool } from "dubbo-ts/extension";

declare module "dubbo-ts" {
  interface CustomExtensions {
    recording: "threadpool";
  }
}

const Greeter = defineService("org.example.plugin.Greeter", {
  greet: { args: [java.String], returns: java.String },
});

/** The arguments of every call the pool admitted, in order. */
const admitted: unknown[] = [];

const recordingPool: ThreadPool = (url) => {
  const inner = createBoundedExecutor({
    threads: url.number("threads", 4),
    queues: 0,
    description: "recording",
  });
  const executor: Executor = {
    description: `threadpool=recording (${inner.description})`,
    get active() {
      return inner.active;
    },
    get queued() {
      return inner.queued;
    },
    get threads() {
      return inner.threads;
    },
    get largest() {
      return inner.largest;
    },
    run(task, arg) {
      admitted.push(arg);
      return inner.run(task, arg);
    },
  };
  return executor;
};

const recordingPlugin: Plugin = {
  name: "recording-pool",
  register: (points) => {
    points.threadPool.register("recording", recordingPool);
  },
};

const quiet = { logger: silentLogger, env: false } as const;

describe("a third-party thread pool", () => {
  it("plugins - a service on a protocol with threadpool=recording runs its calls on the plugin's pool", async () => {
    const app = await createDubbo({
      ...quiet,
      application: { name: "pooled-provider" },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0, threadpool: "recording" },
      plugins: [recordingPlugin],
    });
    try {
      const exported = await app.export(
        Greeter,
        { greet: async (name) => `hello ${name}` },
        { scope: "remote" },
      );
      const greeter = await app.refer(Greeter, { url: exported.urls[0]!.toString(), timeoutMs: 10_000 });
      const before = admitted.length;
      assert.equal(await greeter.greet("ada"), "hello ada");
      assert.equal(await greeter.greet("bob"), "hello bob");
      assert.equal(admitted.length - before, 2, "each call went through the plugin's executor");
    } finally {
      await app.stop();
    }
  });

  it("plugins - a thread pool nobody registered fails at start and at export, listing the registered ones", async () => {
    await assert.rejects(
      createDubbo({
        ...quiet,
        application: { name: "typo" },
        protocol: { name: "dubbo", port: 0, threadpool: "recordng" as "fixed" },
      }),
      (e: unknown) =>
        e instanceof RpcError && /threadpool.*"recordng".*registered: fixed, limited, cached/.test(e.message),
    );
    const app = await createDubbo({
      ...quiet,
      application: { name: "late-typo" },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    });
    try {
      await assert.rejects(
        app.export(
          Greeter,
          { greet: async (name) => name },
          { scope: "remote", parameters: { threadpool: "recording" } },
        ),
        (e: unknown) =>
          e instanceof RpcError &&
          e.code === Code.InvalidArgument &&
          /threadpool=recording .*registered: fixed, limited, cached, eager, worker/.test(e.message),
      );
    } finally {
      await app.stop();
    }
  });
});
