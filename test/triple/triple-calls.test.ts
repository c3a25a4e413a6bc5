// The tri protocol end to end through createDubbo: our consumer calls our provider over real
// HTTP/2 (h2c), direct by url, with the typed stubs, generic calls, $echo, business exceptions,
// attachments both ways, status codes, per-attempt deadlines and cancellation.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  BizError,
  Code,
  defineService,
  getRpcContext,
  java,
  RpcError,
  runWithRpcContext,
  withCallOptions,
} from "../../src/index.js";
import { triApps } from "./tri-apps.js";

const User = java.Class("org.apache.dubbo.demo.User", { name: java.String, age: java.int });

const TripleDemo = defineService("org.apache.dubbo.demo.TripleDemoService", {
  sayHello: { args: [java.String], returns: java.String },
  add: { args: [java.int, java.long], returns: java.long },
  older: { args: [User], returns: User },
  fail: { args: [java.String], returns: java.String },
  slow: { args: [java.int], returns: java.String },
  context: { args: [], returns: java.String },
});

const apps = triApps();
after(() => apps.stopAll());

/** Calls of `slow` still running on the provider, and how each one ended. */
const slowCalls = { running: 0, aborted: [] as string[] };

async function provider(options: { group?: string; version?: string } = {}, payloadBytes?: number) {
  const app = await apps.provider("tri-provider", payloadBytes === undefined ? {} : { payloadBytes });
  const exporter = await app.export(
    TripleDemo,
    {
      sayHello: (name) => `Hello ${name}`,
      add: (a, b) => a + b,
      older: (user) => ({ ...user, age: user.age + 1 }),
      fail: (why) => {
        throw new BizError(`refused: ${why}`, { javaClass: "java.lang.IllegalStateException" });
      },
      slow: (ms) => {
        slowCalls.running++;
        const signal = getRpcContext().invocation?.signal;
        return new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => {
            slowCalls.running--;
            resolve(`slept ${ms}`);
          }, ms);
          signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            slowCalls.running--;
            slowCalls.aborted.push(
              RpcError.from(signal.reason).code === Code.Canceled ? "canceled" : "other",
            );
            reject(signal.reason);
          });
        });
      },
      context: () => {
        const ctx = getRpcContext();
        ctx.setResponseAttachment("answered-by", "tri-provider");
        return `trace=${String(ctx.getAttachment("trace-id"))} app=${String(ctx.getAttachment("remote.application"))}`;
      },
    },
    { scope: "remote", ...options },
  );
  return { url: exporter.urls[0]!, app };
}

async function consumer() {
  return apps.consumer("tri-consumer");
}

describe("tri protocol", () => {
  test("tri - a typed call, longs and a POJO round-trip over h2c", async () => {
    const { url } = await provider();
    assert.equal(url.protocol, "tri");
    const app = await consumer();
    const stub = await app.refer(TripleDemo, { url: `tri://${url.address}` });
    assert.equal(await stub.sayHello("world"), "Hello world");
    assert.equal(await stub.add(2, 40), 42);
    assert.deepEqual({ ...(await stub.older({ name: "ann", age: 41 })) }, { name: "ann", age: 42 });
  });

  test("tri - a business exception reaches the consumer as a BizError with its Java class, never retried", async () => {
    const { url } = await provider();
    const app = await consumer();
    const stub = await app.refer(TripleDemo, { url: `tri://${url.address}` });
    await assert.rejects(stub.fail("no"), (error: unknown) => {
      assert.ok(error instanceof BizError, String(error));
      assert.equal(error.javaClass, "java.lang.IllegalStateException");
      assert.match(error.message, /refused: no/);
      return true;
    });
  });

  test("tri - group and version select the export; an unknown one is Unimplemented naming what is exported", async () => {
    const { url } = await provider({ group: "g1", version: "2.0.0" });
    const app = await consumer();
    const right = await app.refer(TripleDemo, { url: `tri://${url.address}`, group: "g1", version: "2.0.0" });
    assert.equal(await right.sayHello("g"), "Hello g");
    const wrong = await app.refer(TripleDemo, { url: `tri://${url.address}`, group: "g2", retries: 0 });
    await assert.rejects(wrong.sayHello("g"), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, Code.Unimplemented);
      assert.match(error.message, /g1\/org\.apache\.dubbo\.demo\.TripleDemoService:2\.0\.0/);
      return true;
    });
  });

  test("tri - attachments travel as headers both ways, with the consumer's application", async () => {
    const { url } = await provider();
    const app = await consumer();
    const stub = await app.refer(TripleDemo, { url: `tri://${url.address}` });
    const answer = await runWithRpcContext(async (ctx) => {
      ctx.setAttachment("trace-id", "t-42");
      const value = await stub.context();
      return { value, answeredBy: ctx.getReceivedAttachment("answered-by") };
    });
    assert.equal(answer.value, "trace=t-42 app=tri-consumer");
    assert.equal(answer.answeredBy, "tri-provider", "the provider's response attachment came back");
  });

  test("tri - $echo and a generic $invoke", async () => {
    const { url } = await provider();
    const app = await consumer();
    const stub = await app.refer(TripleDemo, { url: `tri://${url.address}` });
    assert.equal(await stub.$echo("ping"), "ping");
    const generic = await app.referGeneric(TripleDemo.interfaceName, { url: `tri://${url.address}` });
    assert.equal(await generic.$invoke("sayHello", ["java.lang.String"], ["generic"]), "Hello generic");
  });

  test("tri - the attempt's timeout travels as grpc-timeout and each attempt is bounded by it", async () => {
    const { url } = await provider();
    const app = await consumer();
    const stub = await app.refer(TripleDemo, { url: `tri://${url.address}`, retries: 0, timeoutMs: 200 });
    await assert.rejects(stub.slow(5000), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, Code.DeadlineExceeded);
      assert.match(error.message, /timeout 200 ms/);
      return true;
    });
  });

  test("tri - aborting the caller's signal resets the stream and the provider's call sees it canceled", async () => {
    const { url } = await provider();
    const app = await consumer();
    const stub = await app.refer(TripleDemo, { url: `tri://${url.address}`, retries: 0, timeoutMs: 10_000 });
    const controller = new AbortController();
    const before = slowCalls.aborted.length;
    const call = withCallOptions(stub, { signal: controller.signal }).slow(60_000);
    for (let i = 0; i < 200 && slowCalls.running === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(slowCalls.running, 1, "the provider is running the call");
    controller.abort();
    await assert.rejects(call, (error: unknown) => error instanceof RpcError && error.code === Code.Canceled);
    for (let i = 0; i < 200 && slowCalls.aborted.length === before; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(slowCalls.aborted.slice(before), ["canceled"], "the provider's call was canceled");
    assert.equal(slowCalls.running, 0);
  });

  test("tri - a provider that is not there fails the refer as Unavailable", async () => {
    const app = await consumer();
    await assert.rejects(app.refer(TripleDemo, { url: "tri://127.0.0.1:1" }), (error: unknown) => {
      assert.ok(error instanceof RpcError, String(error));
      assert.equal(error.code, Code.Unavailable);
      return true;
    });
  });

  test("tri - gzip messages both ways when the reference asks for them", async () => {
    const { url } = await provider();
    const app = await consumer();
    const stub = await app.refer(TripleDemo, {
      url: `tri://${url.address}`,
      parameters: { "dubbo.rpc.tri.compressor": "gzip" },
    });
    const long = "z".repeat(50_000);
    assert.equal(await stub.sayHello(long), `Hello ${long}`);
  });

  test("tri - an unknown compressor fails the refer naming the supported ones", async () => {
    const { url } = await provider();
    const app = await consumer();
    await assert.rejects(
      app.refer(TripleDemo, {
        url: `tri://${url.address}`,
        parameters: { "dubbo.rpc.tri.compressor": "snappy" },
      }),
      /grpc-encoding "snappy" is not supported \(supported: identity,gzip\)/,
    );
  });

  test("tri - the payload limit: the provider refuses a larger request, the consumer a larger call before sending", async () => {
    const { url } = await provider({}, 1000);
    const app = await consumer();
    const stub = await app.refer(TripleDemo, { url: `tri://${url.address}`, retries: 0 });
    assert.equal(await stub.sayHello("small"), "Hello small");
    await assert.rejects(stub.sayHello("x".repeat(2000)), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, Code.ResourceExhausted);
      assert.match(error.message, /over the payload limit of 1000 bytes; raise `payload`/);
      return true;
    });
    const limited = await app.refer(TripleDemo, {
      url: `tri://${url.address}`,
      retries: 0,
      parameters: { payload: "100" },
    });
    await assert.rejects(
      limited.sayHello("y".repeat(200)),
      /the request is \d+ bytes, over the payload limit of 100 bytes/,
    );
  });

  test("tri - stopping the provider sends GOAWAY and lets the call in flight finish", async () => {
    const { url, app: providerApp } = await provider();
    const app = await consumer();
    const stub = await app.refer(TripleDemo, { url: `tri://${url.address}`, retries: 0, timeoutMs: 10_000 });
    const inFlight = stub.slow(300);
    for (let i = 0; i < 200 && slowCalls.running === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await providerApp.stop();
    assert.equal(await inFlight, "slept 300", "the call in flight was drained, not dropped");
    await assert.rejects(
      stub.sayHello("after"),
      (error: unknown) => error instanceof RpcError && error.code === Code.Unavailable,
    );
  });
});
