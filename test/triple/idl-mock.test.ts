// `mock` on IDL references, as Java's MockClusterInvoker wraps every reference (Triple IDL stubs
// too): `force:` / `fail:` with `return`, `throw` and a mock implementation, for unary calls and
// the three streaming kinds; `fail:` only catches a stream that could not be opened.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, test } from "node:test";
import { BizError, Code, type ProtoImplementation, RpcError } from "../../src/index.js";
import type { Greeter } from "./gen/greeter_pb.js";
import { collect, GreeterService, greeterImplementation, names } from "./greeter-peers.js";
import { triApps } from "./tri-apps.js";

const apps = triApps();
/** A loopback port nobody listens on: every call to it fails to connect (retryable, so fail-mock applies). */
let closedPort = 0;
let servingAddress = "";

before(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  const provider = await apps.provider("idl-mock-provider");
  const state = { oursEndings: [], produced: 0 };
  const exported = await provider.export(GreeterService, greeterImplementation(state), { scope: "remote" });
  servingAddress = exported.urls[0]!.address;
});

after(() => apps.stopAll());

/** A direct reference to the closed port; `check: false` lets the refer itself succeed, as in Java. */
function unreachable() {
  return { url: `tri://127.0.0.1:${closedPort}`, check: false } as const;
}

/** A mock of every Greeter rpc, answering as a provider would. */
function greeterMock(label: string): ProtoImplementation<typeof Greeter> {
  return {
    sayHello(request, call) {
      call.trailers["x-mocked"] = label;
      return { message: `${label} ${request.name} ${String(call.metadata["x-caller"] ?? "")}`.trim() };
    },
    async *countdown(request) {
      for (let i = request.count; i > 0; i--) yield { message: label, index: i };
    },
    async collect(requests) {
      const all: string[] = [];
      for await (const request of requests) all.push(request.name);
      return { message: `${label} ${all.join(",")}`, index: all.length };
    },
    async *chat(requests) {
      for await (const request of requests) yield { message: `${label} re ${request.name}` };
    },
  };
}

describe("mock on IDL references", () => {
  test("idl mock - force:return answers a unary call as its response message without calling a provider", async () => {
    const consumer = await apps.consumer("idl-mock-force-return");
    const greeter = await consumer.refer(GreeterService, {
      ...unreachable(),
      mock: 'force:return {"message":"mocked","index":7}',
    });
    const reply = await greeter.sayHello({ name: "x" });
    assert.equal(reply.$typeName, "dubbo.tri.test.HelloReply");
    assert.deepEqual([reply.message, reply.index], ["mocked", 7]);
    const empty = await consumer.refer(GreeterService, {
      ...unreachable(),
      mock: "force:return empty",
    });
    const defaults = await empty.sayHello({ name: "x" });
    assert.deepEqual(
      [defaults.$typeName, defaults.message, defaults.index],
      ["dubbo.tri.test.HelloReply", "", 0],
    );
  });

  test("idl mock - fail:return answers after an RPC failure (a gRPC status too); a live provider's answer wins", async () => {
    const consumer = await apps.consumer("idl-mock-fail-return");
    const mock = 'fail:return {"message":"degraded"}';
    const down = await consumer.refer(GreeterService, { ...unreachable(), retries: 0, mock });
    assert.equal((await down.sayHello({ name: "x" })).message, "degraded");
    const live = await consumer.refer(GreeterService, {
      url: `tri://${servingAddress}`,
      mock,
      timeoutMs: 3000,
    });
    assert.equal((await live.sayHello({ name: "ann" })).message, "hello ann from nobody");
    // A gRPC status is an RpcException in Java, not a business exception: it is mocked too.
    const refused = await live.sayHello({ name: "no", failCode: Code.PermissionDenied });
    assert.equal(refused.message, "degraded");
  });

  test("idl mock - force:throw fails unary and streaming calls; throw <class> is a business error", async () => {
    const consumer = await apps.consumer("idl-mock-throw");
    const greeter = await consumer.refer(GreeterService, {
      ...unreachable(),
      mock: "force:throw",
    });
    await assert.rejects(
      greeter.sayHello({ name: "x" }),
      (e: unknown) => e instanceof RpcError && /mocked exception/.test(e.message),
    );
    await assert.rejects(collect(greeter.countdown({ name: "x", count: 2 })), /mocked exception/);
    await assert.rejects(greeter.collect(names("a")), /mocked exception/);
    const biz = await consumer.refer(GreeterService, {
      ...unreachable(),
      mock: "force:throw com.example.Degraded",
    });
    await assert.rejects(
      collect(biz.chat(names("a"))),
      (e: unknown) => e instanceof BizError && e.javaClass === "com.example.Degraded",
    );
  });

  test("idl mock - a reference's mockImplementation answers all four kinds after a failure, with the call's metadata and trailers", async () => {
    const consumer = await apps.consumer("idl-mock-own");
    const greeter = await consumer.refer(GreeterService, {
      ...unreachable(),
      retries: 0,
      mock: "true",
      mockImplementation: greeterMock("own"),
    });
    let trailers: Record<string, unknown> = {};
    const reply = await greeter.sayHello(
      { name: "ann" },
      { metadata: { "x-caller": "app" }, onMetadata: (m) => (trailers = m) },
    );
    assert.deepEqual([reply.$typeName, reply.message], ["dubbo.tri.test.HelloReply", "own ann app"]);
    assert.equal(trailers["x-mocked"], "own");
    const countdown = await collect(greeter.countdown({ name: "n", count: 3 }));
    assert.deepEqual(
      countdown.map((r) => [r.$typeName, r.index]),
      [
        ["dubbo.tri.test.HelloReply", 3],
        ["dubbo.tri.test.HelloReply", 2],
        ["dubbo.tri.test.HelloReply", 1],
      ],
    );
    const collected = await greeter.collect(names("a", "b"));
    assert.deepEqual([collected.message, collected.index], ["own a,b", 2]);
    assert.deepEqual(
      (await collect(greeter.chat(names("x", "y")))).map((r) => r.message),
      ["own re x", "own re y"],
    );
  });

  test("idl mock - app.registerMock of an IDL service serves mock: force:<name>", async () => {
    const consumer = await apps.consumer("idl-mock-registered");
    consumer.registerMock(GreeterService, greeterMock("registered"), { name: "degraded" });
    const greeter = await consumer.refer(GreeterService, {
      ...unreachable(),
      mock: "force:degraded",
    });
    assert.equal((await greeter.sayHello({ name: "b" })).message, "registered b");
    assert.deepEqual(
      (await collect(greeter.countdown({ name: "n", count: 2 }))).map((r) => r.message),
      ["registered", "registered"],
    );
  });

  test("idl mock - return on a streaming rpc is refused with an error naming what to use", async () => {
    const consumer = await apps.consumer("idl-mock-stream-return");
    const greeter = await consumer.refer(GreeterService, {
      ...unreachable(),
      mock: "force:return null",
    });
    assert.equal(await greeter.sayHello({ name: "x" }), null, "Java's stub hands the caller null");
    await assert.rejects(
      collect(greeter.countdown({ name: "x", count: 1 })),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.InvalidArgument &&
        /server-streaming rpc.*use a mock implementation, or mock=throw/.test(e.message),
    );
    await assert.rejects(greeter.collect(names("a")), { code: Code.InvalidArgument });
  });

  test("idl mock - fail: does not mock a stream that opened and then failed: the failure reaches the caller", async () => {
    const consumer = await apps.consumer("idl-mock-open-stream");
    const greeter = await consumer.refer(GreeterService, {
      url: `tri://${servingAddress}`,
      mock: "fail:true",
      mockImplementation: greeterMock("never"),
    });
    const received: number[] = [];
    await assert.rejects(
      (async () => {
        for await (const reply of greeter.countdown(
          { name: "s", count: 1000, delayMs: 20 },
          { timeoutMs: 300 },
        ))
          received.push(reply.index);
      })(),
      { code: Code.DeadlineExceeded },
    );
    assert.ok(received.length > 0, "the provider's stream was open and answering");
    assert.ok(received.every((index) => index > 0));
  });
});
