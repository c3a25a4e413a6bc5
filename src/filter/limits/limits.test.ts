import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, createInvocation, type Invoker, RpcError, resultOf, Url } from "../../core/index.js";
import { buildFilterChain } from "../filter-chain.js";
import { activesFilter } from "./actives-filter.js";
import { executesFilter } from "./executes-filter.js";
import { tpsFilter } from "./tps-filter.js";

function gatedInvoker(url: string): { invoker: Invoker; open: () => void; calls: () => number } {
  let calls = 0;
  let gates: Array<() => void> = [];
  return {
    calls: () => calls,
    open: () => {
      const all = gates;
      gates = [];
      for (const g of all) g();
    },
    invoker: {
      url: Url.parse(url),
      isAvailable: () => true,
      destroy: async () => {},
      invoke: async () => {
        calls++;
        await new Promise<void>((resolve) => gates.push(resolve));
        return resultOf("done");
      },
    },
  };
}

const inv = (method = "sayHello", deadline?: number) =>
  createInvocation({ service: "demo.S", method, ...(deadline === undefined ? {} : { deadline }) });

describe("limit filters", () => {
  it("executes - refuses the call beyond the method's limit with ResourceExhausted, frees on completion", async () => {
    const { invoker, open } = gatedInvoker("dubbo://127.0.0.1:1/demo.S?sayHello.executes=2");
    const chain = buildFilterChain(invoker, [executesFilter]);
    const running = [chain.invoke(inv()), chain.invoke(inv())];
    await assert.rejects(chain.invoke(inv()), (e: unknown) => {
      return e instanceof RpcError && e.code === Code.ResourceExhausted && /executes=2/.test(e.message);
    });
    const other = chain.invoke(inv("other"));
    open();
    await Promise.all([...running, other]);
    const again = chain.invoke(inv());
    open();
    assert.equal((await again).value, "done");
  });

  it("actives - a call beyond the limit waits for a slot, and fails after its timeout", async () => {
    const { invoker, open, calls } = gatedInvoker("dubbo://127.0.0.1:1/demo.S?actives=1&timeout=2000");
    const chain = buildFilterChain(invoker, [activesFilter]);
    const first = chain.invoke(inv());
    const second = chain.invoke(inv());
    await new Promise((r) => setImmediate(r));
    assert.equal(calls(), 1);
    open();
    await first;
    for (let i = 0; i < 50 && calls() < 2; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(calls(), 2);
    const third = chain.invoke(inv("sayHello", Date.now() + 30));
    await assert.rejects(third, (e: unknown) => {
      return e instanceof RpcError && e.code === Code.ResourceExhausted && /actives=1/.test(e.message);
    });
    open();
    assert.equal((await second).value, "done");
  });

  it("tps - allows `tps` calls per interval, then refuses until the next one", async () => {
    let n = 0;
    const invoker: Invoker = {
      url: Url.parse("dubbo://127.0.0.1:1/demo.S?tps=2&tps.interval=60000"),
      isAvailable: () => true,
      destroy: async () => {},
      invoke: async () => resultOf(++n),
    };
    const chain = buildFilterChain(invoker, [tpsFilter]);
    await chain.invoke(inv());
    await chain.invoke(inv());
    await assert.rejects(
      chain.invoke(inv()),
      (e: unknown) => e instanceof RpcError && /tps=2/.test(e.message),
    );
    assert.equal(n, 2);
  });
});
