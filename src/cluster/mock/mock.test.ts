import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  BizError,
  Code,
  createInvocation,
  type Invocation,
  type JavaType,
  java,
  RpcError,
  Url,
} from "../../core/index.js";
import { createFakeInvokers, createSeededRandom, FakeInvoker } from "../../testing/index.js";
import { BUILTIN_LOAD_BALANCES } from "../builtin.js";
import type { ClusterContext, MockImplementation, Router } from "../contracts.js";
import { INVOCATION_NEED_MOCK } from "../contracts.js";
import { StaticDirectory } from "../directory/static-directory.js";
import { failoverCluster } from "../support/failover-cluster.js";
import { withMock } from "./mock-cluster.js";
import { parseMockSetting, parseMockValue } from "./mock-value.js";

const SERVICE = "com.example.DemoService";

function context(mocks: Record<string, MockImplementation> = {}): ClusterContext {
  const balancers = BUILTIN_LOAD_BALANCES;
  return {
    loadBalance: (name) => balancers[name]!,
    warn: () => {},
    random: createSeededRandom(1),
    mockImplementation: (iface, name) => mocks[`${iface}#${name}`],
  };
}

function mocked(
  mock: string,
  invokers: FakeInvoker[],
  mocks: Record<string, MockImplementation> = {},
  routers: Router[] = [],
) {
  const url = new Url({
    protocol: "consumer",
    host: "127.0.0.1",
    port: 0,
    path: SERVICE,
    params: { interface: SERVICE, mock },
  });
  return withMock(failoverCluster)(new StaticDirectory(url, invokers, routers), context(mocks));
}

function call(returnType?: JavaType, method = "sayHello"): Invocation {
  return createInvocation({ service: SERVICE, method, args: ["x"], returnType });
}

describe("mock", () => {
  it("mock - fail: never answers a call the caller canceled", async () => {
    const invokers = createFakeInvokers(1);
    invokers[0]!.failTimes(1, new RpcError("the caller aborted", Code.Canceled));
    const invoker = mocked("fail:return mocked", invokers);
    await assert.rejects(invoker.invoke(call()), { code: Code.Canceled });
  });

  it("mock - force:return never calls the providers", async () => {
    const invokers = createFakeInvokers(2);
    const invoker = mocked('force:return {"name":"mocked"}', invokers);
    assert.deepEqual((await invoker.invoke(call())).value, { name: "mocked" });
    assert.equal(invokers[0]!.calls + invokers[1]!.calls, 0);
  });

  it("mock - fail:return is used only after a non-business failure", async () => {
    const invokers = createFakeInvokers(1);
    const invoker = mocked("fail:return 'fallback'", invokers);
    assert.equal((await invoker.invoke(call())).value, invokers[0]!.address, "success passes through");
    invokers[0]!.alwaysFail();
    assert.equal((await invoker.invoke(call())).value, "fallback");
    assert.equal(invokers[0]!.calls, 4, "one success, then 3 failover attempts before mocking");
    invokers[0]!.throwBizError("nope", "com.example.NopeException");
    await assert.rejects(
      invoker.invoke(call()),
      (e: unknown) => e instanceof BizError && e.javaClass === "com.example.NopeException",
    );
  });

  it("mock - a plain value behaves as fail:", async () => {
    const invokers = createFakeInvokers(1).map((i) => i.alwaysFail());
    assert.equal((await mocked("return 7", invokers).invoke(call(java.int))).value, 7);
    assert.equal(invokers[0]!.calls, 3);
  });

  it("mock - return null|empty|true|false|JSON by return type", () => {
    assert.equal(parseMockValue("null", java.String), null);
    assert.equal(parseMockValue("true", java.boolean), true);
    assert.equal(parseMockValue("false", undefined), false);
    assert.deepEqual(parseMockValue("empty", java.List(java.String)), []);
    assert.deepEqual(parseMockValue("empty", java.Map(java.String, java.int)), new Map());
    assert.deepEqual(parseMockValue("empty", java.Set(java.int)), new Set());
    assert.equal(parseMockValue("empty", java.int), 0);
    assert.equal(parseMockValue("empty", java.String), "");
    assert.deepEqual(
      parseMockValue("empty", java.Class("com.example.User", { id: java.long, name: java.String })),
      { id: 0, name: null },
    );
    assert.equal(parseMockValue("empty", undefined), null);
    assert.equal(parseMockValue("hello world", java.String), "hello world");
    assert.equal(parseMockValue('"quoted"', undefined), "quoted");
    assert.equal(parseMockValue("1.5", java.double), 1.5);
    assert.deepEqual(parseMockValue("[1,2]", java.List(java.int)), [1, 2]);
    assert.deepEqual(parseMockValue('{"a":1}', java.Map(java.String, java.int)), new Map([["a", 1]]));
  });

  it("mock - settings parse as Java's normalizeMock", () => {
    assert.equal(parseMockSetting(undefined), undefined);
    assert.equal(parseMockSetting("false"), undefined);
    assert.deepEqual(parseMockSetting("return"), { force: false, action: { kind: "return", text: "null" } });
    assert.deepEqual(parseMockSetting("true"), {
      force: false,
      action: { kind: "implementation", name: "default" },
    });
    assert.deepEqual(parseMockSetting("force"), {
      force: true,
      action: { kind: "implementation", name: "default" },
    });
    assert.deepEqual(parseMockSetting("force:return `x`"), {
      force: true,
      action: { kind: "return", text: '"x"' },
    });
    assert.deepEqual(parseMockSetting("fail:throw com.foo.E"), {
      force: false,
      action: { kind: "throw", javaClass: "com.foo.E" },
    });
    assert.deepEqual(parseMockSetting("com.foo.DemoMock"), {
      force: false,
      action: { kind: "implementation", name: "com.foo.DemoMock" },
    });
  });

  it("mock - throw gives an RpcError, throw <class> a BizError of that class", async () => {
    const invokers = createFakeInvokers(1);
    await assert.rejects(mocked("force:throw", invokers).invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError);
      assert.match(e.message, /mocked exception for service degradation/);
      return true;
    });
    await assert.rejects(
      mocked("force:throw com.example.DegradedException", invokers).invoke(call()),
      (e: unknown) => e instanceof BizError && e.javaClass === "com.example.DegradedException",
    );
    assert.equal(invokers[0]!.calls, 0);
  });

  it("mock - true/default call the registered mock implementation", async () => {
    const invokers = createFakeInvokers(1).map((i) => i.alwaysFail());
    const impl = { sayHello: async (name: unknown) => `mock hello ${String(name)}` };
    const invoker = mocked("true", invokers, { [`${SERVICE}#default`]: impl });
    assert.equal((await invoker.invoke(call())).value, "mock hello x");
    const missing = mocked(
      "default",
      createFakeInvokers(1).map((i) => i.alwaysFail()),
    );
    await assert.rejects(missing.invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError && e.code === Code.FailedPrecondition);
      assert.match(
        e.message,
        /default mock of com\.example\.DemoService \(com\.example\.DemoServiceMock\) is not registered/,
      );
      assert.match(e.message, /after the call failed with/);
      return true;
    });
  });

  it("mock - the value is URL-decoded once more, as Java: dubbo-admin's force:return+null is force:return null", async () => {
    const invokers = createFakeInvokers(1);
    assert.equal((await mocked("force:return+null", invokers).invoke(call())).value, null);
    assert.equal((await mocked("force%3Areturn+%22busy%22", invokers).invoke(call())).value, "busy");
    assert.equal(invokers[0]!.calls, 0);
    await assert.rejects(mocked("force:return 100%", invokers).invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError && e.code === Code.InvalidArgument);
      assert.match(e.message, /mock=force:return 100% .* not validly URL-encoded .*%25/);
      return true;
    });
    assert.deepEqual(parseMockSetting("fail:force:return 1"), {
      force: false,
      action: { kind: "return", text: "1" },
    });
  });

  it("mock - mock=<name> calls that implementation only after an RPC failure, never on a business error", async () => {
    const invokers = createFakeInvokers(1);
    const impl = { sayHello: (name: unknown) => `degraded ${String(name)}` };
    const invoker = mocked("helloFallback", invokers, { [`${SERVICE}#helloFallback`]: impl });
    assert.equal((await invoker.invoke(call())).value, invokers[0]!.address, "a success passes through");
    invokers[0]!.throwBizError("no such user", "com.example.NoUserException");
    await assert.rejects(invoker.invoke(call()), (e: unknown) => e instanceof BizError);
    invokers[0]!.failTimes(3, new RpcError("service not found", Code.Unimplemented));
    assert.equal((await invoker.invoke(call())).value, "degraded x");
  });

  it("mock - a mock:// provider in the directory serves mock calls", async () => {
    const real = new FakeInvoker({ address: "127.0.0.1:20880" }).alwaysFail();
    const mockProvider = new FakeInvoker({ address: "127.0.0.1:0", protocol: "mock" }).alwaysReturn(
      "from mock provider",
    );
    // Stand-in for the mock-invokers router: mock providers only for mock calls.
    const mockRouter: Router = {
      name: "mock",
      priority: -100,
      url: undefined,
      route: (list, _u, inv) =>
        inv.attachments[INVOCATION_NEED_MOCK] === "true"
          ? list.filter((i) => i.url.protocol === "mock")
          : list.filter((i) => i.url.protocol !== "mock"),
    };
    const invoker = mocked("fail:return null", [real, mockProvider], {}, [mockRouter]);
    assert.equal((await invoker.invoke(call())).value, "from mock provider");
    assert.equal(mockProvider.calls, 1);
    assert.equal(real.calls, 3);
  });

  it("mock - per-method setting", async () => {
    const invokers = createFakeInvokers(1);
    const url = new Url({
      protocol: "consumer",
      host: "127.0.0.1",
      port: 0,
      path: SERVICE,
      params: { interface: SERVICE, "find.mock": "force:return empty" },
    });
    const invoker = withMock(failoverCluster)(new StaticDirectory(url, invokers), context());
    assert.deepEqual((await invoker.invoke(call(java.List(java.String), "find"))).value, []);
    assert.equal((await invoker.invoke(call())).value, invokers[0]!.address);
    assert.equal(invokers[0]!.calls, 1);
  });
});
