import assert from "node:assert/strict";
import { AsyncLocalStorage, createHook } from "node:async_hooks";
import { describe, it } from "node:test";
import { createInvocation, type Filter, type Invoker, resultOf, Url } from "../core/index.js";
import { type CallListener, listenerFilter } from "./call-listener.js";
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
});
