import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  BizError,
  Code,
  defineService,
  getRpcContext,
  type Invocation,
  type Invoker,
  isRetryable,
  java,
  RpcError,
  resultOf,
  silentLogger,
  Url,
} from "../../core/index.js";
import { createFilterExtensionPoint, wrapProtocolWithFilters } from "../../filter/index.js";
import { createProviderInvoker, createStub } from "../../proxy/index.js";
import type { Logger } from "../../transport/index.js";
import { createWorkerInvoker } from "../shared/index.js";
import { createDubboProtocol, type DubboProtocol } from "./index.js";

const quiet: Logger = silentLogger;
const IFACE = "org.apache.dubbo.demo.DemoService";
const User = java.Class("org.apache.dubbo.demo.User", { name: java.String, age: java.int });
const DemoService = defineService(IFACE, {
  sayHello: { args: [java.String], returns: java.String },
  greet: { args: [User], returns: User },
  fail: { args: [java.String], returns: java.void },
  slow: { args: [java.int], returns: java.String },
});

const implementation = {
  sayHello(name: string) {
    getRpcContext().setResponseAttachment("served-by", "node");
    return `Hello ${name}`;
  },
  greet(user: { name: string; age: number }) {
    return { name: `Dear ${user.name}`, age: user.age + 1 };
  },
  fail(reason: string): void {
    throw new BizError(`no such user ${reason}`, { javaClass: "com.foo.UserNotFoundException" });
  },
  async slow(ms: number) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return `slept ${ms}`;
  },
};

function providerUrl(params = ""): Url {
  return Url.parse(`dubbo://127.0.0.1:0/${IFACE}?interface=${IFACE}${params}`);
}

const protocols: DubboProtocol[] = [];
after(async () => {
  await Promise.all(protocols.map((p) => p.destroy()));
});

function newProtocol(): DubboProtocol {
  const protocol = createDubboProtocol({ logger: quiet, shutdownWaitMs: 2000 });
  protocols.push(protocol);
  return protocol;
}

async function serve(params = "") {
  const provider = newProtocol();
  const filtered = wrapProtocolWithFilters(provider, createFilterExtensionPoint());
  const exporter = await filtered.export(
    createProviderInvoker(DemoService, implementation, providerUrl(params)),
  );
  const url = (exporter as unknown as { url: Url }).url;
  return { provider, port: url.port, url };
}

function referenceUrl(port: number, params = ""): Url {
  return Url.parse(`dubbo://127.0.0.1:${port}/${IFACE}?interface=${IFACE}&timeout=3000${params}`);
}

describe("dubbo protocol", () => {
  it("dubbo - a stub calls a provider over TCP, with typed POJOs and response attachments", async () => {
    const { port } = await serve();
    const consumer = newProtocol();
    const invoker = await consumer.refer(referenceUrl(port));
    const stub = createStub(DemoService, invoker);
    assert.equal(await stub.sayHello("world"), "Hello world");
    assert.deepEqual({ ...(await stub.greet({ name: "Ann", age: 41 })) }, { name: "Dear Ann", age: 42 });
    const result = await invoker.invoke({
      service: IFACE,
      group: undefined,
      version: undefined,
      method: "sayHello",
      parameterTypes: [java.String],
      returnType: java.String,
      args: ["x"],
      attachments: {},
      signal: new AbortController().signal,
      deadline: undefined,
      oneWay: false,
    });
    assert.equal(result.value, "Hello x");
    assert.equal(result.attachments["served-by"], "node");
    assert.equal(result.attachments.dubbo, "2.0.2");
  });

  it("dubbo - a provider's exception arrives as a BizError with its Java class", async () => {
    const { port } = await serve();
    const stub = createStub(DemoService, await newProtocol().refer(referenceUrl(port)));
    await assert.rejects(stub.fail("bob"), (e: unknown) => {
      return (
        e instanceof BizError && e.javaClass === "com.foo.UserNotFoundException" && /bob/.test(e.message)
      );
    });
  });

  it("dubbo - group and version select the exporter; version 0.0.0 means none", async () => {
    const { port } = await serve("&group=g1&version=1.0.0");
    const consumer = newProtocol();
    const ok = createStub(DemoService, await consumer.refer(referenceUrl(port, "&group=g1&version=1.0.0")));
    assert.equal(await ok.sayHello("v"), "Hello v");
    const wrong = createStub(DemoService, await consumer.refer(referenceUrl(port, "&version=2.0.0")));
    await assert.rejects(wrong.sayHello("v"), (e: unknown) => {
      return (
        e instanceof RpcError &&
        e.code === Code.Unimplemented &&
        e.message.includes(`${IFACE}:2.0.0`) &&
        e.message.includes(`g1/${IFACE}:1.0.0`)
      );
    });
    const plain = await serve();
    const none = createStub(DemoService, await consumer.refer(referenceUrl(plain.port, "&version=0.0.0")));
    assert.equal(await none.sayHello("z"), "Hello z");
  });

  it("dubbo - an unknown method is answered at once with the methods the service has", async () => {
    const { port } = await serve();
    const Other = defineService(IFACE, { missing: { args: [], returns: java.String } });
    const stub = createStub(Other, await newProtocol().refer(referenceUrl(port)));
    // Java answers a call without parameters to a method it lacks with status 70, "Not found method".
    await assert.rejects(stub.missing(), (e: unknown) => {
      return (
        e instanceof RpcError &&
        e.code === Code.Unknown &&
        /Not found method/.test(e.message) &&
        /no method "missing"/.test(e.message) &&
        /sayHello/.test(e.message)
      );
    });
  });

  it("dubbo - a call whose parameter types the provider lacks gets Java's status 40 and never runs", async () => {
    const { port } = await serve();
    const Skewed = defineService(IFACE, { sayHello: { args: [java.int], returns: java.String } });
    const stub = createStub(Skewed, await newProtocol().refer(referenceUrl(port, "&retries=0")));
    await assert.rejects(stub.sayHello(7), (e: unknown) => {
      return (
        e instanceof RpcError &&
        e.code === Code.InvalidArgument &&
        e.message.includes(`Service not found:${IFACE}, sayHello`) &&
        e.message.includes(`no method ${IFACE}.sayHello(int): its sayHello takes (java.lang.String)`)
      );
    });
  });

  it("dubbo - two versions of one interface with different contracts each dispatch their own signatures", async () => {
    const V2 = defineService(IFACE, { sayHello: { args: [java.String, java.int], returns: java.String } });
    const provider = newProtocol();
    const filtered = wrapProtocolWithFilters(provider, createFilterExtensionPoint());
    const v1 = await filtered.export(
      createProviderInvoker(DemoService, implementation, providerUrl("&version=1")),
    );
    await filtered.export(
      createProviderInvoker(
        V2,
        { sayHello: (n: string, t: number) => `v2 ${n} x${t}` },
        providerUrl("&version=2"),
      ),
    );
    const port = (v1 as unknown as { url: Url }).url.port;
    const one = createStub(DemoService, await newProtocol().refer(referenceUrl(port, "&version=1")));
    const two = createStub(V2, await newProtocol().refer(referenceUrl(port, "&version=2")));
    assert.equal(await one.sayHello("ann"), "Hello ann");
    assert.equal(await two.sayHello("ann", 2), "v2 ann x2");
  });

  it("dubbo - overloads: each declared overload is sent with its descriptor and dispatched by it", async () => {
    const Overloaded = defineService(IFACE, {
      sayHello: { args: [java.String], returns: java.String },
      sayHelloTimes: { javaName: "sayHello", args: [java.String, java.int], returns: java.String },
      sayHelloToAll: { javaName: "sayHello", args: [java.List(java.String)], returns: java.String },
    });
    const provider = newProtocol();
    const exporter = await wrapProtocolWithFilters(provider, createFilterExtensionPoint()).export(
      createProviderInvoker(
        Overloaded,
        {
          sayHello: (name: string) => `Hello ${name}`,
          sayHelloTimes: (name: string, times: number) => `Hello ${name} x${times}`,
          sayHelloToAll: (names: string[]) => `Hello ${names.join(" and ")}`,
        },
        providerUrl(),
      ),
    );
    const port = (exporter as unknown as { url: Url }).url.port;
    const seen: string[] = [];
    const recorder: Invoker = await newProtocol().refer(referenceUrl(port));
    const stub = createStub(Overloaded, {
      ...recorder,
      url: recorder.url,
      invoke(inv: Invocation) {
        seen.push(`${inv.method}(${inv.parameterTypes.map((t) => t.descriptor).join("")})`);
        return recorder.invoke(inv);
      },
    });
    assert.equal(await stub.sayHello("ann"), "Hello ann");
    assert.equal(await stub.sayHelloTimes("ann", 3), "Hello ann x3");
    assert.equal(await stub.sayHelloToAll(["ann", "bob"]), "Hello ann and bob");
    assert.deepEqual(seen, [
      "sayHello(Ljava/lang/String;)",
      "sayHello(Ljava/lang/String;I)",
      "sayHello(Ljava/util/List;)",
    ]);
  });

  it("dubbo - one server per host:port serves every service exported there", async () => {
    const provider = newProtocol();
    const first = await provider.export(
      createProviderInvoker(DemoService, implementation, providerUrl("&version=1")),
    );
    const second = await provider.export(
      createProviderInvoker(
        DemoService,
        implementation,
        providerUrl("&version=2").with({ port: first.url.port }),
      ),
    );
    assert.equal(first.url.port, second.url.port);
    await assert.rejects(
      provider.export(
        createProviderInvoker(
          DemoService,
          implementation,
          providerUrl("&version=2").with({ port: first.url.port }),
        ),
      ),
      (e: unknown) => e instanceof RpcError && e.code === Code.AlreadyExists,
    );
    const consumer = newProtocol();
    const v2 = createStub(DemoService, await consumer.refer(referenceUrl(first.url.port, "&version=2")));
    assert.equal(await v2.sayHello("two"), "Hello two");
  });

  it("dubbo - the server listens with the `backlog` parameter, 4096 by default (capped by somaxconn)", async () => {
    // For a listening socket `ss` shows the accept queue's length as Send-Q.
    const listenBacklog = (port: number): number => {
      const line = execFileSync("ss", ["-ltnH", `sport = :${port}`], { encoding: "utf8" }).trim();
      return Number(line.split(/\s+/)[2]);
    };
    const somaxconn = Number(readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
    const byDefault = await serve();
    assert.equal(listenBacklog(byDefault.port), Math.min(4096, somaxconn));
    const set = await serve("&backlog=77");
    assert.equal(listenBacklog(set.port), 77);
  });

  it("dubbo - the provider reads the timeout attachment (int or string) as the call's deadline", async () => {
    const seen: Array<number | undefined> = [];
    const recorder: Invoker = {
      url: providerUrl(),
      isAvailable: () => true,
      destroy: async () => {},
      invoke: async (inv: Invocation) => {
        seen.push(inv.deadline === undefined ? undefined : inv.deadline - Date.now());
        return resultOf("ok");
      },
    };
    const provider = newProtocol();
    const exporter = await provider.export(recorder);
    const invoker = await newProtocol().refer(referenceUrl(exporter.url.port));
    const base = {
      service: IFACE,
      group: undefined,
      version: undefined,
      method: "anything",
      parameterTypes: [],
      returnType: undefined,
      args: [],
      signal: new AbortController().signal,
      deadline: undefined,
      oneWay: false,
    };
    await invoker.invoke({ ...base, attachments: { timeout: 5000 } });
    await invoker.invoke({ ...base, attachments: { timeout: "7000" } });
    await invoker.invoke({ ...base, attachments: {} });
    assert.ok(seen[0] !== undefined && seen[0] > 4000 && seen[0] <= 5000, `int timeout gave ${seen[0]}`);
    assert.ok(seen[1] !== undefined && seen[1] > 6000 && seen[1] <= 7000, `string timeout gave ${seen[1]}`);
    // Without a caller attachment the consumer sends its own timeout (3000 from the reference URL).
    assert.ok(seen[2] !== undefined && seen[2] > 2000 && seen[2] <= 3000, `default timeout gave ${seen[2]}`);
  });

  it("dubbo - an attempt waits the call's `timeout` attachment, else the method's (for $invoke the named one's)", async () => {
    const gates: Array<() => void> = [];
    const hung: Invoker = {
      url: providerUrl(),
      isAvailable: () => true,
      destroy: async () => {},
      invoke: () => new Promise((resolve) => gates.push(() => resolve(resultOf("late")))),
    };
    const exporter = await newProtocol().export(hung);
    const invoker = await newProtocol().refer(
      referenceUrl(exporter.url.port, "&timeout=60000&sayHello.timeout=40&slow.timeout=50"),
    );
    const base = {
      service: IFACE,
      group: undefined,
      version: undefined,
      parameterTypes: [],
      returnType: undefined,
      signal: new AbortController().signal,
      deadline: undefined,
      oneWay: false,
    };
    const timedOutAfter = (ms: number) => (e: unknown) =>
      e instanceof RpcError && e.code === Code.DeadlineExceeded && e.message.includes(`(timeout ${ms} ms)`);
    try {
      await assert.rejects(
        invoker.invoke({ ...base, method: "sayHello", args: ["x"], attachments: {} }),
        timedOutAfter(40),
      );
      await assert.rejects(
        invoker.invoke({ ...base, method: "$invoke", args: ["slow", ["int"], [1]], attachments: {} }),
        timedOutAfter(50),
      );
      await assert.rejects(
        invoker.invoke({ ...base, method: "sayHello", args: ["x"], attachments: { timeout: "30" } }),
        timedOutAfter(30),
      );
      assert.equal(invoker.pendingCount, 0);
    } finally {
      for (const open of gates) open();
    }
  });

  it("dubbo - return=false sends one-way: the call resolves without waiting for the provider", async () => {
    let calls = 0;
    const provider = newProtocol();
    const exporter = await provider.export({
      url: providerUrl(),
      isAvailable: () => true,
      destroy: async () => {},
      invoke: async () => {
        calls++;
        return resultOf("ignored");
      },
    });
    const stub = createStub(
      DemoService,
      await newProtocol().refer(referenceUrl(exporter.url.port, "&sayHello.return=false")),
    );
    assert.equal(await stub.sayHello("fire"), undefined);
    for (let i = 0; i < 100 && calls === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(calls, 1);
  });

  it("dubbo - the protocol lets go of a destroyed reference: 1000 refer/destroy cycles leave none held", async () => {
    const { port } = await serve();
    const consumer = newProtocol();
    // One reference keeps the shared link up, so each cycle refers over a live connection.
    const kept = await consumer.refer(referenceUrl(port, "&connections=0"));
    for (let i = 0; i < 1000; i++) {
      const invoker = await consumer.refer(referenceUrl(port, "&connections=0"));
      if (i % 250 === 0)
        assert.equal(await createStub(DemoService, invoker).sayHello("again"), "Hello again");
      assert.equal(consumer.invokerCount, 2);
      await invoker.destroy();
      assert.equal(consumer.invokerCount, 1, `cycle ${i}: the destroyed invoker is still held`);
    }
    await kept.destroy();
    assert.equal(consumer.invokerCount, 0);
  });

  it("dubbo - shared connections: two references to one address use one link until both are gone", async () => {
    const { provider, port } = await serve();
    const consumer = newProtocol();
    const a = await consumer.refer(referenceUrl(port));
    const b = await consumer.refer(referenceUrl(port, "&timeout=1000"));
    assert.equal(await createStub(DemoService, a).sayHello("a"), "Hello a");
    assert.equal(await createStub(DemoService, b).sayHello("b"), "Hello b");
    assert.equal((await provider.serverStats())[0]?.connections, 1);
    await a.destroy();
    assert.equal(await createStub(DemoService, b).sayHello("b"), "Hello b");
    const dedicated = await consumer.refer(referenceUrl(port, "&connections=2"));
    assert.equal(await createStub(DemoService, dedicated).sayHello("d"), "Hello d");
    assert.equal((await provider.serverStats())[0]?.connections, 3);
    await b.destroy();
    await dedicated.destroy();
    for (let i = 0; i < 100 && (await provider.serverStats())[0]?.connections !== 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal((await provider.serverStats())[0]?.connections, 0);
  });

  it("dubbo - check=true fails refer when nothing listens; lazy refers without connecting", async () => {
    const { port, provider } = await serve();
    const consumer = newProtocol();
    await provider.destroy();
    await assert.rejects(consumer.refer(referenceUrl(port)), (e: unknown) => {
      return e instanceof RpcError && e.code === Code.Unavailable && e.message.includes(`127.0.0.1:${port}`);
    });
    const lazy = await consumer.refer(referenceUrl(port, "&lazy=true"));
    assert.equal(lazy.isAvailable(), true);
  });

  it("dubbo - threads=1: each answer, a value or a thrown error, frees the call's slot for the next call", async () => {
    const { port } = await serve("&threads=1&queues=0");
    const stub = createStub(DemoService, await newProtocol().refer(referenceUrl(port, "&retries=0")));
    for (let i = 0; i < 3; i++) {
      assert.equal(await stub.sayHello(`n${i}`), `Hello n${i}`);
      await assert.rejects(stub.fail("x"), (e: unknown) => e instanceof BizError);
    }
    const running = stub.slow(1000);
    let refused = false;
    // Until the slow call holds the one slot (bounded: it holds it for a second).
    for (let i = 0; i < 100 && !refused; i++) {
      try {
        await stub.sayHello("busy");
      } catch (error) {
        assert.ok(error instanceof RpcError && error.code === Code.ResourceExhausted, String(error));
        refused = true;
      }
    }
    assert.ok(refused, "a call while the slot is held is refused");
    assert.equal(await running, "slept 1000");
    assert.equal(await stub.sayHello("after"), "Hello after");
  });

  it("dubbo - threadpool=worker: a CPU-bound service exported over TCP runs in worker threads", async () => {
    const CpuService = defineService("demo.CpuService", { spin: { args: [java.int], returns: java.Object } });
    const url = Url.parse("dubbo://127.0.0.1:0/demo.CpuService?interface=demo.CpuService&threadpool=worker");
    const worker = createWorkerInvoker(
      CpuService,
      {
        module: fileURLToPath(new URL("../../../test/fault/fixtures/cpu-service.ts", import.meta.url)),
        exportName: "cpuService",
        threads: 1,
        preload: [new URL("../../../test/fault/fixtures/tsx-preload.mjs", import.meta.url)],
      },
      url,
    );
    const exporter = await newProtocol().export(worker);
    const stub = createStub(
      CpuService,
      await newProtocol().refer(
        Url.parse(
          `dubbo://127.0.0.1:${exporter.url.port}/demo.CpuService?interface=demo.CpuService&timeout=5000`,
        ),
      ),
    );
    const value = (await stub.spin(100)) as Map<string, number> | { sum: number; thread: number };
    const sum = value instanceof Map ? value.get("sum") : value.sum;
    const thread = value instanceof Map ? value.get("thread") : value.thread;
    assert.equal(sum, 4950);
    assert.notEqual(thread, 0);
  });

  it("dubbo - graceful destroy: READONLY makes the reference unavailable, in-flight calls still finish", async () => {
    const { provider, port } = await serve();
    const invoker = await newProtocol().refer(referenceUrl(port));
    const stub = createStub(DemoService, invoker);
    const running = stub.slow(200);
    await new Promise((r) => setTimeout(r, 50));
    const closing = provider.destroy();
    assert.equal(await running, "slept 200");
    await closing;
    assert.equal(invoker.isAvailable(), false);
    await assert.rejects(stub.sayHello("late"), (e: unknown) => e instanceof RpcError && isRetryable(e));
  });
});
