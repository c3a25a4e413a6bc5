import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  BizError,
  Code,
  defineService,
  type Filter,
  getRpcContext,
  java,
  RpcError,
  runWithRpcContext,
  Url,
} from "../../core/index.js";
import { createFilterExtensionPoint, wrapProtocolWithFilters } from "../../filter/index.js";
import { createGenericStub, createProviderInvoker, createStub } from "../../proxy/index.js";
import { createInjvmProtocol } from "./index.js";

const User = java.Class("org.apache.dubbo.demo.User", { name: java.String, age: java.int });
const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
  greet: { args: [User], returns: User },
  fail: { args: [java.String], returns: java.void },
});

const PROVIDER_URL = Url.parse(
  "injvm://127.0.0.1/org.apache.dubbo.demo.DemoService?interface=org.apache.dubbo.demo.DemoService&version=1.0.0",
);
const REFERENCE_URL = Url.parse(
  "injvm://127.0.0.1/org.apache.dubbo.demo.DemoService?interface=org.apache.dubbo.demo.DemoService&version=1.0.0&timeout=2000",
);

const implementation = {
  async sayHello(name: string) {
    const ctx = getRpcContext();
    await nextTurn();
    const trace = ctx.getAttachment("traceId");
    ctx.setResponseAttachment("echoedTrace", `seen:${String(trace)}`);
    return `Hello ${name} from ${ctx.remoteAddress}${trace === undefined ? "" : ` [${String(trace)}]`}`;
  },
  greet(user: { name: string; age: number }) {
    return { name: `Dear ${user.name}`, age: user.age + 1 };
  },
  fail(reason: string): void {
    if (reason === "biz") throw new BizError("no such user", { javaClass: "com.foo.UserNotFoundException" });
    throw new RangeError(`bad ${reason}`);
  },
};

async function setUp(filtersSetup?: (point: ReturnType<typeof createFilterExtensionPoint>) => void) {
  const filters = createFilterExtensionPoint();
  filtersSetup?.(filters);
  const protocol = wrapProtocolWithFilters(createInjvmProtocol(), filters);
  return { filters, protocol };
}

describe("injvm end to end", () => {
  it("injvm - a stub calls the exported implementation through both filter chains", async () => {
    const { protocol } = await setUp();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    const stub = createStub(DemoService, await protocol.refer(REFERENCE_URL));
    assert.equal(await stub.sayHello("world"), "Hello world from 127.0.0.1:0");
    assert.deepEqual(await stub.greet({ name: "Ann", age: 41 }), { name: "Dear Ann", age: 42 });
    await protocol.destroy();
  });

  it("injvm - the protocol lets go of a destroyed reference: 1000 refer/destroy cycles leave none held", async () => {
    const protocol = createInjvmProtocol();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    for (let i = 0; i < 1000; i++) {
      const invoker = await protocol.refer(REFERENCE_URL);
      if (i % 250 === 0)
        assert.deepEqual(await createStub(DemoService, invoker).greet({ name: "A", age: 1 }), {
          name: "Dear A",
          age: 2,
        });
      assert.equal(protocol.invokerCount, 1);
      await invoker.destroy();
      assert.equal(protocol.invokerCount, 0, `cycle ${i}: the destroyed invoker is still held`);
    }
    await protocol.destroy();
  });

  it("injvm - attachments travel to the provider and back", async () => {
    const { protocol } = await setUp();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    const stub = createStub(DemoService, await protocol.refer(REFERENCE_URL));
    await runWithRpcContext(async (ctx) => {
      ctx.setAttachment("traceId", "abc-123");
      const reply = await stub.sayHello("ctx");
      assert.equal(reply, "Hello ctx from 127.0.0.1:0 [abc-123]");
      assert.equal(ctx.getReceivedAttachment("echoedTrace"), "seen:abc-123");
      assert.equal(ctx.lastCall?.remoteAddress, "127.0.0.1");
    });
    await protocol.destroy();
  });

  it("injvm - concurrent calls keep their own attachments", async () => {
    const { protocol } = await setUp();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    const stub = createStub(DemoService, await protocol.refer(REFERENCE_URL));
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        runWithRpcContext(async (ctx) => {
          ctx.setAttachment("traceId", `t${i}`);
          const reply = await stub.sayHello(`n${i}`);
          return [reply, ctx.getReceivedAttachment("echoedTrace")];
        }),
      ),
    );
    replies.forEach(([reply, echoed], i) => {
      assert.equal(reply, `Hello n${i} from 127.0.0.1:0 [t${i}]`);
      assert.equal(echoed, `seen:t${i}`);
    });
    await protocol.destroy();
  });

  it("injvm - $echo answers without calling the service", async () => {
    const { protocol } = await setUp();
    let called = 0;
    const counting = {
      ...implementation,
      sayHello: (n: string) => {
        called++;
        return n;
      },
    };
    await protocol.export(createProviderInvoker(DemoService, counting, PROVIDER_URL));
    const stub = createStub(DemoService, await protocol.refer(REFERENCE_URL));
    assert.deepEqual(await stub.$echo({ ping: 1 }), { ping: 1 });
    assert.equal(called, 0);
    await protocol.destroy();
  });

  it("injvm - generic $invoke realizes a POJO map and returns a map with its class", async () => {
    const { protocol } = await setUp();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    const generic = createGenericStub(await protocol.refer(REFERENCE_URL));
    const reply = await generic.$invoke(
      "greet",
      ["org.apache.dubbo.demo.User"],
      [{ class: "org.apache.dubbo.demo.User", name: "Bob", age: "29" }],
    );
    assert.deepEqual(reply, { class: "org.apache.dubbo.demo.User", name: "Dear Bob", age: 30 });
    assert.equal(await generic.$invokeAsync("sayHello", null, ["gen"]), "Hello gen from 127.0.0.1:0");
    await protocol.destroy();
  });

  it("injvm - generic $invoke with a wrong method, types or argument gets a clear error", async () => {
    const { protocol } = await setUp();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    const generic = createGenericStub(await protocol.refer(REFERENCE_URL));
    await assert.rejects(
      generic.$invoke("nope", null, []),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.Unimplemented &&
        /no method "nope".*sayHello, greet, fail/.test(e.message),
    );
    await assert.rejects(
      generic.$invoke("sayHello", ["int"], [1]),
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.InvalidArgument && /java\.lang\.String/.test(e.message),
    );
    await assert.rejects(
      generic.$invoke("greet", null, [{ class: "org.apache.dubbo.demo.User", name: "x", age: "old" }]),
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.InvalidArgument && /args\[0\]\.age/.test(e.message),
    );
    await protocol.destroy();
  });

  it("injvm - provider exceptions reach the caller as BizError, RpcErrors pass through", async () => {
    const { protocol } = await setUp();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    const stub = createStub(DemoService, await protocol.refer(REFERENCE_URL));
    await assert.rejects(
      stub.fail("biz"),
      (e: unknown) => e instanceof BizError && e.javaClass === "com.foo.UserNotFoundException",
    );
    await assert.rejects(
      stub.fail("input"),
      (e: unknown) =>
        e instanceof BizError &&
        e.javaClass === "java.lang.RuntimeException" &&
        e.message === "RangeError: bad input",
    );
    const generic = createGenericStub(await protocol.refer(REFERENCE_URL));
    await assert.rejects(
      generic.$invoke("fail", null, ["biz"]),
      (e: unknown) =>
        e instanceof BizError &&
        e.javaClass === "org.apache.dubbo.rpc.service.GenericException" &&
        e.fields.exceptionClass === "com.foo.UserNotFoundException",
    );
    await protocol.destroy();
  });

  it("injvm - calling a service that is not exported names the key and what is exported", async () => {
    const { protocol } = await setUp();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    const other = REFERENCE_URL.withParams({ version: "2.0.0", group: "g" });
    const stub = createStub(DemoService, await protocol.refer(other));
    await assert.rejects(
      stub.sayHello("x"),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.NotFound &&
        e.message.includes('"g/org.apache.dubbo.demo.DemoService:2.0.0"') &&
        e.message.includes("exported: org.apache.dubbo.demo.DemoService:1.0.0"),
    );
    await protocol.destroy();
  });

  it("injvm - two protocols (two applications) never see each other's services", async () => {
    const a = await setUp();
    const b = await setUp();
    await a.protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    const stub = createStub(DemoService, await b.protocol.refer(REFERENCE_URL));
    await assert.rejects(
      stub.sayHello("x"),
      (e: unknown) => e instanceof RpcError && e.code === Code.NotFound,
    );
    await a.protocol.destroy();
    await b.protocol.destroy();
  });

  it("injvm - exporting one service key twice fails, unexport frees it", async () => {
    const { protocol } = await setUp();
    const exporter = await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    await assert.rejects(
      protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL)),
      (e: unknown) => e instanceof RpcError && e.code === Code.AlreadyExists,
    );
    await exporter.unexport();
    await protocol.export(createProviderInvoker(DemoService, implementation, PROVIDER_URL));
    await protocol.destroy();
  });

  it("injvm - user filters run in activation order on both sides, and -name removes one", async () => {
    const order: string[] = [];
    const tracing =
      (label: string): Filter =>
      (next) =>
      (inv) => {
        order.push(label);
        return next(inv);
      };
    const { protocol } = await setUp((point) => {
      point.register("outer", {
        filter: tracing("provider-outer"),
        activate: { side: "provider", order: -50000 },
      });
      point.register("inner", {
        filter: tracing("provider-inner"),
        activate: { side: "provider", order: 100 },
      });
      point.register("client", { filter: tracing("consumer-named") });
    });
    await protocol.export(
      createProviderInvoker(
        DemoService,
        implementation,
        PROVIDER_URL.withParams({ "service.filter": "-inner" }),
      ),
    );
    const stub = createStub(
      DemoService,
      await protocol.refer(REFERENCE_URL.withParams({ "reference.filter": "client" })),
    );
    await stub.sayHello("f");
    assert.deepEqual(order, ["consumer-named", "provider-outer"]);
    await assert.rejects(
      protocol.refer(REFERENCE_URL.withParams({ "reference.filter": "typo" })),
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.InvalidArgument && /registered: .*client/.test(e.message),
    );
    await protocol.destroy();
  });

  it("injvm - a provider slower than the timeout fails the call with DeadlineExceeded", async () => {
    const { protocol } = await setUp();
    let release: () => void = () => {};
    const slow = {
      ...implementation,
      sayHello: () =>
        new Promise<string>((resolve) => {
          release = () => resolve("late");
        }),
    };
    await protocol.export(createProviderInvoker(DemoService, slow, PROVIDER_URL));
    const stub = createStub(
      DemoService,
      await protocol.refer(REFERENCE_URL.withParams({ "sayHello.timeout": 20 })),
    );
    await assert.rejects(
      stub.sayHello("x"),
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.DeadlineExceeded && /sayHello\.timeout/.test(e.message),
    );
    release();
    await protocol.destroy();
  });
});
