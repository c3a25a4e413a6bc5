import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  BizError,
  Code,
  createInvocation,
  type Filter,
  type Invoker,
  RpcError,
  resultOf,
  Url,
} from "../core/index.js";
import { buildFilterChain, echoFilter, exceptionFilter } from "./index.js";

const url = Url.parse("injvm://127.0.0.1/com.foo.S?interface=com.foo.S");

function invokerReturning(fn: () => unknown): Invoker {
  return {
    url,
    invoke: async () => resultOf(await fn()),
    isAvailable: () => true,
    destroy: async () => {},
  };
}

const inv = (method = "m", args: unknown[] = []) => createInvocation({ service: "com.foo.S", method, args });

describe("filter chain", () => {
  it("chain - the first filter is outermost, and filters are set up once, not per call", async () => {
    const events: string[] = [];
    const labelled =
      (label: string): Filter =>
      (next) => {
        events.push(`build ${label}`);
        return async (i) => {
          events.push(`before ${label}`);
          const r = await next(i);
          events.push(`after ${label}`);
          return r;
        };
      };
    const chain = buildFilterChain(
      invokerReturning(() => "v"),
      [labelled("a"), labelled("b")],
    );
    await chain.invoke(inv());
    await chain.invoke(inv());
    assert.deepEqual(events, [
      "build b",
      "build a",
      "before a",
      "before b",
      "after b",
      "after a",
      "before a",
      "before b",
      "after b",
      "after a",
    ]);
    assert.equal(chain.url, url);
  });

  it("chain - a filter that does not return a function fails at build time", () => {
    const broken = (() => undefined) as unknown as Filter;
    assert.throws(
      () =>
        buildFilterChain(
          invokerReturning(() => 1),
          [broken],
        ),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.InvalidArgument &&
        /filter #0 of com\.foo\.S/.test(e.message),
    );
  });

  it("echo - $echo with one argument returns it, other calls pass through", async () => {
    const chain = buildFilterChain(
      invokerReturning(() => "service"),
      [echoFilter],
    );
    assert.equal((await chain.invoke(inv("$echo", ["hi"]))).value, "hi");
    assert.equal((await chain.invoke(inv("m", ["hi"]))).value, "service");
  });

  it("exception - plain errors become BizError with the class name; BizError and RpcError pass", async () => {
    class ValidationError extends Error {}
    const thrown = (e: unknown) =>
      buildFilterChain(
        invokerReturning(() => Promise.reject(e)),
        [exceptionFilter],
      );
    await assert.rejects(thrown(new ValidationError("bad")).invoke(inv()), (e: unknown) => {
      return (
        e instanceof BizError &&
        e.message === "ValidationError: bad" &&
        e.javaClass === "java.lang.RuntimeException"
      );
    });
    const biz = new BizError("x", { javaClass: "com.foo.X" });
    await assert.rejects(thrown(biz).invoke(inv()), (e: unknown) => e === biz);
    const rpc = new RpcError("denied", Code.PermissionDenied);
    await assert.rejects(thrown(rpc).invoke(inv()), (e: unknown) => e === rpc);
    await assert.rejects(
      thrown("just a string").invoke(inv()),
      (e: unknown) => e instanceof BizError && /just a string/.test(e.message),
    );
  });
});
