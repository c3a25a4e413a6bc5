import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  Code,
  createInvocation,
  currentRpcContext,
  defineService,
  type Invocation,
  type Invoker,
  java,
  NEVER_ABORTED,
  RpcError,
  type RpcResult,
  resultOf,
  runWithRpcContext,
  Url,
} from "../core/index.js";
import {
  createGenericStub,
  createProviderInvoker,
  createStub,
  type EchoService,
  withCallOptions,
} from "./index.js";

const Calc = defineService("com.foo.Calc", {
  add: { args: [java.int, java.int], returns: java.int },
  name: { args: [], returns: java.String },
});
const URL_ = Url.parse(
  "injvm://127.0.0.1/com.foo.Calc?interface=com.foo.Calc&version=1.0.0&timeout=3000&add.timeout=700",
);

/** A recording invoker: answers every call with `answer(inv)` and keeps the invocations. */
function recordingInvoker(answer: (inv: Invocation) => unknown = () => 0): Invoker & { calls: Invocation[] } {
  const calls: Invocation[] = [];
  return {
    url: URL_,
    calls,
    invoke: async (inv: Invocation): Promise<RpcResult> => {
      calls.push(inv);
      return resultOf(answer(inv));
    },
    isAvailable: () => true,
    destroy: async () => {},
  };
}

describe("consumer stub", () => {
  it("stub - builds invocations with the contract's Java types and group/version, and no deadline of its own", async () => {
    const invoker = recordingInvoker((inv) => (inv.args[0] as number) + (inv.args[1] as number));
    const stub = createStub(Calc, invoker);
    assert.equal(await stub.add(2, 3), 5);
    const inv = invoker.calls[0]!;
    assert.equal(inv.service, "com.foo.Calc");
    assert.equal(inv.version, "1.0.0");
    assert.equal(inv.method, "add");
    assert.deepEqual(
      inv.parameterTypes.map((t) => t.descriptor),
      ["I", "I"],
    );
    assert.equal(inv.returnType?.name, "int");
    // `timeout` bounds each attempt below the cluster (the protocol invoker), not the whole call.
    assert.equal(inv.deadline, undefined);
    assert.equal(inv.signal, NEVER_ABORTED);
    assert.deepEqual(inv.attachments, {});
  });

  it("stub - binds the RpcContext's attachments into the invocation it builds, its own winning", async () => {
    const invoker = recordingInvoker(() => 1);
    const stub = createStub(Calc, invoker);
    await runWithRpcContext(async (ctx) => {
      ctx.setAttachment("traceId", "t-1").setAttachment("timeout", "1");
      await stub.add(1, 2);
      await withCallOptions(stub, { attachments: { extra: "e" }, timeoutMs: 5 }).add(1, 2);
      // With nothing of its own, the call carries the context's snapshot as is: no copy.
      assert.equal(invoker.calls[0]!.attachments, ctx.attachments);
    });
    assert.deepEqual(invoker.calls[0]!.attachments, { traceId: "t-1", timeout: "1" });
    assert.deepEqual(invoker.calls[1]!.attachments, { traceId: "t-1", timeout: "5", extra: "e" });
  });

  it("call options - a view's calls carry its timeout (as the `timeout` attachment), attachments and signal", async () => {
    const invoker = recordingInvoker(() => 1);
    const stub = createStub(Calc, invoker);
    const controller = new AbortController();
    const view = withCallOptions(stub, { timeoutMs: 5000, attachments: { traceId: "t-1" } });
    await view.add(1, 2);
    await withCallOptions(view, { signal: controller.signal, attachments: { traceId: "t-2" } }).name();
    await stub.name();
    const [first, second, plain] = invoker.calls;
    assert.deepEqual(first?.attachments, { traceId: "t-1", timeout: "5000" });
    assert.deepEqual(
      second?.attachments,
      { traceId: "t-2", timeout: "5000" },
      "a view of a view adds over it",
    );
    assert.equal(second?.signal, controller.signal);
    assert.deepEqual(plain?.attachments, {}, "the stub itself is unchanged");
    const generic = createGenericStub(invoker);
    await withCallOptions(generic, { timeoutMs: 42 }).$invoke("add", ["int", "int"], [1, 2]);
    assert.deepEqual(invoker.calls[3]?.attachments, { generic: "true", timeout: "42" });
  });

  it("call options - an abort rejects the call at once with Canceled, even if the invoker never lets go", async () => {
    const hung: Invoker = { ...recordingInvoker(), invoke: () => new Promise<RpcResult>(() => {}) };
    const controller = new AbortController();
    const call = withCallOptions(createStub(Calc, hung), { signal: controller.signal }).add(1, 2);
    controller.abort();
    await assert.rejects(
      call,
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.Canceled &&
        /com\.foo\.Calc\.add was canceled/.test(e.message),
    );
    const invoker = recordingInvoker();
    await assert.rejects(
      withCallOptions(createStub(Calc, invoker), { signal: AbortSignal.abort() }).name(),
      (e: unknown) => e instanceof RpcError && e.code === Code.Canceled,
    );
    assert.equal(invoker.calls.length, 0, "an already aborted call is never made");
  });

  it("call options - bad options throw a TypeError naming the option", () => {
    const stub = createStub(Calc, recordingInvoker());
    assert.throws(() => withCallOptions(stub, { timeoutMs: 0 }), /timeoutMs must be an integer from 1/);
    assert.throws(
      () => withCallOptions(stub, { timeout: 5 } as never),
      /unknown call option "timeout" \(the options: timeoutMs, signal, attachments\)/,
    );
    assert.throws(
      () => withCallOptions(stub, { signal: {} as AbortSignal }),
      /signal must be an AbortSignal/,
    );
    assert.throws(
      () => withCallOptions(stub, { attachments: { a: {} as string } }),
      /attachments\.a must be a string/,
    );
    assert.throws(
      () => withCallOptions({} as EchoService, { timeoutMs: 5 }),
      /takes a stub made by app\.refer/,
    );
  });

  it("stub - a method the contract lacks throws a TypeError naming the contract's methods", () => {
    const stub = createStub(Calc, recordingInvoker()) as unknown as Record<
      string,
      (...a: unknown[]) => unknown
    >;
    assert.throws(() => stub.subtract!(1, 2), {
      name: "TypeError",
      message: 'com.foo.Calc has no method "subtract" (the contract\'s methods: add, name; plus $echo)',
    });
    assert.equal("subtract" in stub, false);
    assert.equal("add" in stub, true);
  });

  it("stub - the wrong number of arguments throws a TypeError with the signature", () => {
    const stub = createStub(Calc, recordingInvoker()) as unknown as Record<
      string,
      (...a: unknown[]) => unknown
    >;
    assert.throws(() => stub.add!(1), /com\.foo\.Calc\.add\(int, int\) takes 2 argument\(s\), got 1/);
  });

  it("stub - can be awaited and returned from async functions (it is not a thenable)", async () => {
    const stub = createStub(Calc, recordingInvoker());
    const same = await (async () => stub)();
    assert.equal(same, stub);
    assert.equal(String(stub), "[DubboStub<com.foo.Calc>]");
  });

  it("stub - a stub over a reference to another interface is refused", () => {
    const other = { ...recordingInvoker(), url: Url.parse("injvm://127.0.0.1/com.foo.Other") };
    assert.throws(
      () => createStub(Calc, other),
      (e: unknown) => e instanceof RpcError && e.code === Code.InvalidArgument,
    );
  });

  it("stub - the generic stub sends $invoke with the generic attachment", async () => {
    const invoker = recordingInvoker(() => "r");
    const generic = createGenericStub(invoker);
    assert.equal(await generic.$invoke("add", ["int", "int"], [1, 2]), "r");
    const inv = invoker.calls[0]!;
    assert.equal(inv.method, "$invoke");
    assert.deepEqual(inv.args, ["add", ["int", "int"], [1, 2]]);
    assert.deepEqual(inv.attachments, { generic: "true" });
    assert.deepEqual(
      inv.parameterTypes.map((t) => t.descriptor),
      ["Ljava/lang/String;", "[Ljava/lang/String;", "[Ljava/lang/Object;"],
    );
    assert.throws(() => generic.$invoke("", null, []), TypeError);
  });
});

describe("provider invoker", () => {
  const call = (invoker: Invoker, method: string, args: unknown[]) =>
    invoker.invoke(createInvocation({ service: "com.foo.Calc", method, args }));

  it("provider - a missing implementation method fails at export time naming it", () => {
    assert.throws(
      () => createProviderInvoker(Calc, { add: (a: number, b: number) => a + b } as never, URL_),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.InvalidArgument &&
        e.message.includes('lacks "name"') &&
        e.message.includes("it has: add"),
    );
    assert.throws(
      () => createProviderInvoker(Calc, class Impl {} as never, URL_),
      /pass an object or an instance/,
    );
  });

  it("provider - class instances work, with prototype methods and `this`", async () => {
    class CalcImpl {
      base = 10;
      add(a: number, b: number) {
        return this.base + a + b;
      }
      async name() {
        return "calc";
      }
    }
    const invoker = createProviderInvoker(Calc, new CalcImpl(), URL_);
    assert.equal((await call(invoker, "add", [1, 2])).value, 13);
    assert.equal((await call(invoker, "name", [])).value, "calc");
    assert.equal(invoker.definition, Calc);
  });

  it("provider - a sync throw and a rejected promise both become the call's error", async () => {
    const boom = new Error("sync boom");
    const invoker = createProviderInvoker(
      Calc,
      {
        add: () => {
          throw boom;
        },
        name: async () => {
          throw new Error("async boom");
        },
      },
      URL_,
    );
    await assert.rejects(call(invoker, "add", [1, 2]), (e: unknown) => e === boom);
    await assert.rejects(call(invoker, "name", []), /async boom/);
  });

  it("provider - the user's function runs inside a provider context even without the context filter", async () => {
    let side: string | undefined;
    const invoker = createProviderInvoker(
      Calc,
      {
        add: () => 0,
        name: () => {
          side = currentRpcContext()?.side;
          return "n";
        },
      },
      URL_,
    );
    await call(invoker, "name", []);
    assert.equal(side, "provider");
  });

  it("provider - an unknown method or a wrong argument count is rejected clearly", async () => {
    const invoker = createProviderInvoker(Calc, { add: () => 0, name: () => "" }, URL_);
    await assert.rejects(
      call(invoker, "mul", [1, 2]),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.Unimplemented &&
        /no method "mul" \(methods: add, name\)/.test(e.message),
    );
    await assert.rejects(
      call(invoker, "add", [1]),
      (e: unknown) => e instanceof RpcError && e.code === Code.InvalidArgument,
    );
  });
});
