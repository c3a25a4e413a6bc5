import assert from "node:assert/strict";
import { AsyncLocalStorage, createHook } from "node:async_hooks";
import { describe, it } from "node:test";
import { createInvocation, type Filter, type Invoker, type RpcResult, resultOf, Url } from "../core/index.js";
import { type CallListener, invokeListening, listenerFilter, type SettledListener } from "./call-listener.js";
import { buildFilterChain } from "./filter-chain.js";

const url = Url.parse("injvm://127.0.0.1/com.foo.S?interface=com.foo.S");

function invokerDoing(fn: () => unknown): Invoker {
  return {
    url,
    invoke: () => {
      try {
        return Promise.resolve(resultOf(fn()));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    isAvailable: () => true,
    destroy: async () => {},
  };
}

const inv = () => createInvocation({ service: "com.foo.S", method: "m", args: [] });

/** Records what each listener saw; `answer` recovers an error, `fail` turns a result into an error. */
function recording(label: string, events: string[], act: "pass" | "answer" | "fail" = "pass"): Filter {
  const listener: CallListener = {
    onResponse(result) {
      events.push(`${label} response ${String(result.value)}`);
      if (act === "fail") throw new Error(`${label} failed`);
      return result;
    },
    onError(error) {
      events.push(`${label} error ${(error as Error).message}`);
      if (act === "answer") return resultOf(`${label} answered`);
      throw error;
    },
  };
  return listenerFilter(() => listener);
}

/** Promises one call makes, counted on a second call (the first may set up what calls share). */
async function promisesOf(run: () => Promise<unknown>): Promise<number> {
  await run();
  let count = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") count++;
    },
  });
  hook.enable();
  await run();
  hook.disable();
  return count;
}

describe("call listeners", () => {
  it("listeners - run innermost first, an error or answer passing outwards as nested filters would", async () => {
    const events: string[] = [];
    const chain = buildFilterChain(
      invokerDoing(() => {
        throw new Error("boom");
      }),
      [recording("outer", events), recording("middle", events, "answer"), recording("inner", events)],
    );
    assert.equal((await chain.invoke(inv())).value, "middle answered");
    assert.deepEqual(events, ["inner error boom", "middle error boom", "outer response middle answered"]);

    events.length = 0;
    const failing = buildFilterChain(
      invokerDoing(() => "v"),
      [recording("outer", events), recording("inner", events, "fail")],
    );
    await assert.rejects(failing.invoke(inv()), /inner failed/);
    assert.deepEqual(events, ["inner response v", "outer error inner failed"]);
  });

  it("listeners - a listener filter between plain ones keeps its place in the onion", async () => {
    const events: string[] = [];
    const plain =
      (label: string): Filter =>
      (next) =>
      async (i) => {
        events.push(`before ${label}`);
        const r = await next(i);
        events.push(`after ${label}`);
        return r;
      };
    const chain = buildFilterChain(
      invokerDoing(() => "v"),
      [plain("a"), recording("l", events), plain("b")],
    );
    await chain.invoke(inv());
    assert.deepEqual(events, ["before a", "before b", "after b", "l response v", "after a"]);
  });

  it("listeners - adjacent listener filters share one promise step per call", async () => {
    const target = invokerDoing(() => "v");
    const one = buildFilterChain(target, [recording("a", [])]);
    const three = buildFilterChain(target, [recording("a", []), recording("b", []), recording("c", [])]);
    // Called on its own, each listener filter is an ordinary filter with its own step.
    const separate = [recording("a", []), recording("b", []), recording("c", [])].reduceRight(
      (next, filter) => filter(next, target),
      (i: ReturnType<typeof inv>) => target.invoke(i),
    );
    const alone = await promisesOf(() => one.invoke(inv()));
    assert.equal(await promisesOf(() => three.invoke(inv())), alone);
    assert.equal(await promisesOf(() => separate(inv())), alone + 2);
  });

  it("listeners - a factory answering undefined leaves the filter out of that invoker's chain", async () => {
    const target = invokerDoing(() => "v");
    const skipped = buildFilterChain(target, [listenerFilter(() => undefined)]);
    assert.equal(await promisesOf(() => skipped.invoke(inv())), await promisesOf(() => target.invoke(inv())));
  });

  it("listeners - an around scope holds for the rest of the call and for every listener of its step", async () => {
    const scope = new AsyncLocalStorage<string>();
    const seen: string[] = [];
    const scoped = listenerFilter(() => ({
      around: (i, proceed) => scope.run("scoped", proceed, i),
      onResponse(result) {
        seen.push(`outer ${scope.getStore()}`);
        return result;
      },
    }));
    const inner = listenerFilter(() => ({
      onResponse(result) {
        seen.push(`inner ${scope.getStore()}`);
        return result;
      },
    }));
    const chain = buildFilterChain(
      invokerDoing(() => scope.getStore()),
      [scoped, inner],
    );
    assert.equal((await chain.invoke(inv())).value, "scoped");
    assert.deepEqual(seen, ["inner scoped", "outer scoped"]);
  });

  it("listeners - begin runs outermost first as the call passes, its token handed to that listener only", async () => {
    const events: string[] = [];
    const timed = (label: string): Filter =>
      listenerFilter(() => ({
        begin: () => {
          events.push(`begin ${label}`);
          return `${label} token`;
        },
        onResponse(result, _inv, _startedAt, begun) {
          events.push(`${label} got ${String(begun)}`);
          return result;
        },
      }));
    const chain = buildFilterChain(
      invokerDoing(() => {
        events.push("call");
        return "v";
      }),
      [timed("outer"), recording("plain listener", events), timed("inner")],
    );
    await chain.invoke(inv());
    assert.deepEqual(events, [
      "begin outer",
      "begin inner",
      "call",
      "inner got inner token",
      "plain listener response v",
      "outer got outer token",
    ]);
  });
  it("listeners - startedAt is the call's Date.now() in a step with a timed listener, and not read otherwise", async () => {
    const seen: number[] = [];
    const reading = (timed: boolean): Filter =>
      listenerFilter(() => ({
        timed,
        onResponse(result, _inv, startedAt) {
          seen.push(startedAt);
          return result;
        },
      }));
    const before = Date.now();
    await buildFilterChain(
      invokerDoing(() => "v"),
      [reading(false), reading(true)],
    ).invoke(inv());
    const after = Date.now();
    await buildFilterChain(
      invokerDoing(() => "v"),
      [reading(false)],
    ).invoke(inv());
    assert.equal(seen.length, 3);
    assert.ok(seen[0]! >= before && seen[0]! <= after && seen[1] === seen[0], `started at ${seen[0]}`);
    assert.equal(seen[2], 0);
  });

  it("listeners - a begin that throws fails the call; it and the listeners begun outside it settle, with their tokens", async () => {
    const events: string[] = [];
    const begunAs = (label: string, begin: () => unknown): Filter =>
      listenerFilter(() => ({
        begin,
        onResponse(result, _inv, _startedAt, begun) {
          events.push(`${label} response ${String(begun)}`);
          return result;
        },
        onError(error, _inv, _startedAt, begun) {
          events.push(`${label} error ${(error as Error).message} ${String(begun)}`);
          throw error;
        },
      }));
    const chain = buildFilterChain(
      invokerDoing(() => {
        events.push("call");
        return "v";
      }),
      [
        begunAs("outer", () => "outer token"),
        begunAs("throwing", () => {
          throw new Error("no begin");
        }),
        begunAs("inner", () => "inner token"),
      ],
    );
    await assert.rejects(chain.invoke(inv()), /no begin/);
    // The outer listener's pairing holds (a call-event filter's callStarted gets its callFinished);
    // the throwing one sees its own error with no token (Java's FilterNode calls the throwing
    // filter's listener too); the one inside never began, and the call never went on.
    assert.deepEqual(events, ["throwing error no begin undefined", "outer error no begin outer token"]);
  });
});

describe("invokeListening", () => {
  /** A caller's listener recording what it saw; `retry` answers an error with a new call. */
  const caller = (events: string[], retry?: () => Promise<RpcResult>): SettledListener => ({
    onResponse(result) {
      events.push(`caller response ${String(result.value)}`);
      return result;
    },
    onError(error) {
      events.push(`caller error ${(error as Error).message}`);
      if (retry !== undefined) return retry();
      throw error;
    },
  });

  it("runs after the chain's listeners, in the step the chain starts with", async () => {
    const events: string[] = [];
    const chain = buildFilterChain(
      invokerDoing(() => "v"),
      [recording("l", events)],
    );
    assert.equal((await invokeListening(chain, inv(), caller(events))).value, "v");
    assert.deepEqual(events, ["l response v", "caller response v"]);
    const own = await promisesOf(() => chain.invoke(inv()));
    assert.equal(await promisesOf(() => invokeListening(chain, inv(), caller([]))), own);
  });

  it("answers an error with what the caller's listener returns, a promise included", async () => {
    const events: string[] = [];
    const chain = buildFilterChain(
      invokerDoing(() => {
        throw new Error("boom");
      }),
      [recording("l", events)],
    );
    const retried = await invokeListening(
      chain,
      inv(),
      caller(events, () => Promise.resolve(resultOf("again"))),
    );
    assert.equal(retried.value, "again");
    assert.deepEqual(events, ["l error boom", "caller error boom"]);
  });

  it("gets a step of its own for an invoker without a chain, or one starting with a plain filter", async () => {
    const events: string[] = [];
    const bare = invokerDoing(() => "v");
    await invokeListening(bare, inv(), caller(events));
    // A plain filter first may answer without calling on: the caller's listener still runs.
    const answering: Filter = () => () => Promise.resolve(resultOf("answered"));
    const chain = buildFilterChain(bare, [answering, recording("l", events)]);
    await invokeListening(chain, inv(), caller(events));
    const throwing = {
      ...bare,
      invoke: (): Promise<RpcResult> => {
        throw new Error("thrown");
      },
    };
    await assert.rejects(invokeListening(throwing, inv(), caller(events)), /thrown/);
    assert.deepEqual(events, ["caller response v", "caller response answered", "caller error thrown"]);
  });

  it("still runs when an around fails before the step, and a call made inside an around keeps its own", async () => {
    const events: string[] = [];
    const target = invokerDoing(() => "v");
    const failingAround = listenerFilter(() => ({
      around: () => {
        throw new Error("no scope");
      },
    }));
    await assert.rejects(
      invokeListening(buildFilterChain(target, [failingAround]), inv(), caller(events)),
      /no scope/,
    );
    const nested = buildFilterChain(target, [recording("nested", events)]);
    let inner: Promise<RpcResult> | undefined;
    const callingAround = listenerFilter(() => ({
      around: (i, proceed) => {
        inner = invokeListening(nested, i, caller(events));
        return proceed(i);
      },
    }));
    await invokeListening(buildFilterChain(target, [callingAround]), inv(), caller(events));
    await inner;
    assert.deepEqual(events, [
      "caller error no scope",
      "nested response v",
      "caller response v",
      "caller response v",
    ]);
  });
});
