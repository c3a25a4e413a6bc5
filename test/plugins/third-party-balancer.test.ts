// A least-active balancer written against the public API only: its context gives it the same
// call statistics the built-in `leastactive` reads, so both steer away from a busy provider.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDubbo, type DubboApplication, defineService, java, silentLogger, Url } from "dubbo-ts";
import type { Invoker, LoadBalance, LoadBalanceContext, Plugin } from "dubbo-ts/extension";
import { waitFor } from "../../src/testing/index.js";

declare module "dubbo-ts" {
  interface CustomExtensions {
    fewest: "loadbalance";
  }
}

const Worker = defineService("org.example.plugin.Worker", {
  work: { args: [java.String], returns: java.String },
});

/** What the third-party balancer saw on each pick: active calls per provider address. */
const seen: Array<Record<string, number>> = [];

function createFewestInFlight(context: LoadBalanceContext): LoadBalance {
  return {
    select(invokers, _url, inv): Invoker {
      const active = invokers.map((invoker) => context.rpcStatus.of(invoker.url, inv.method).active);
      seen.push(Object.fromEntries(invokers.map((invoker, i) => [invoker.url.address, active[i]!])));
      const fewest = Math.min(...active);
      const ties = invokers.filter((_, i) => active[i] === fewest);
      return ties[Math.floor(context.random() * ties.length)]!;
    },
  };
}

const fewestPlugin: Plugin = {
  name: "fewest",
  register: (points) => {
    points.loadBalance.register("fewest", createFewestInFlight);
  },
};

const quiet = { logger: silentLogger, env: false } as const;

async function startWorker(
  name: string,
  held: Promise<void>,
): Promise<{ app: DubboApplication; url: string }> {
  const app = await createDubbo({
    ...quiet,
    application: { name },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
  const exported = await app.export(
    Worker,
    {
      async work(job) {
        if (job === "hold") await held;
        return name;
      },
    },
    { scope: "remote" },
  );
  return { app, url: exported.urls[0]!.toString() };
}

describe("a third-party load balancer", () => {
  it("plugins - a least-active balancer on the public API sees the same active counts as the built-in", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = await startWorker("worker-a", held);
    const b = await startWorker("worker-b", held);
    const consumer = await createDubbo({
      ...quiet,
      application: { name: "balancing-consumer" },
      plugins: [fewestPlugin],
    });
    try {
      const options = { url: [a.url, b.url], timeoutMs: 10_000, retries: 0 } as const;
      const builtin = await consumer.refer(Worker, { ...options, loadbalance: "leastactive" });
      const mine = await consumer.refer(Worker, { ...options, loadbalance: "fewest" });
      const holding = builtin.work("hold");
      const activeOn = (worker: { url: string }) =>
        consumer.extensions.rpcStatus.of(Url.parse(worker.url), "work").active;
      await waitFor("the held call to be counted", () => activeOn(a) + activeOn(b) === 1);
      const [busy, idle] = activeOn(a) === 1 ? ["worker-a", "worker-b"] : ["worker-b", "worker-a"];
      assert.equal(await mine.work("quick"), idle, "the third-party balancer avoids the busy provider");
      assert.equal(await builtin.work("quick"), idle, "so does the built-in leastactive");
      assert.deepEqual(seen.at(-1), {
        [Url.parse(a.url).address]: activeOn(a),
        [Url.parse(b.url).address]: activeOn(b),
      });
      release();
      assert.equal(await holding, busy);
    } finally {
      release();
      await consumer.stop();
      await a.app.stop();
      await b.app.stop();
    }
  });
});
