import assert from "node:assert/strict";
import { createHook } from "node:async_hooks";
import { describe, it } from "node:test";
import {
  BizError,
  Code,
  createInvocation,
  type Invocation,
  LazySignalInvocation,
  RpcError,
  RpcStatusTable,
  runWithRpcContext,
  Url,
} from "../../core/index.js";
import { buildFilterChain, consumerContextFilter } from "../../filter/index.js";
import { createFakeInvokers, createSeededRandom, FakeInvoker } from "../../testing/index.js";
import { BUILTIN_LOAD_BALANCES } from "../builtin.js";
import type { Cluster, ClusterContext, Router } from "../contracts.js";
import { StaticDirectory } from "../directory/static-directory.js";
import { PINPOINT_KEY } from "./attachments.js";
import { availableCluster } from "./available-cluster.js";
import { broadcastCluster } from "./broadcast-cluster.js";
import { FailbackClusterInvoker } from "./failback-cluster.js";
import { failfastCluster } from "./failfast-cluster.js";
import { failoverCluster } from "./failover-cluster.js";
import { failsafeCluster } from "./failsafe-cluster.js";
import { forkingCluster } from "./forking-cluster.js";

const SERVICE = "com.example.DemoService";

function testContext(extra: Partial<ClusterContext> = {}): ClusterContext & { warnings: string[] } {
  const warnings: string[] = [];
  const balancers = BUILTIN_LOAD_BALANCES;
  return {
    warnings,
    loadBalance: (name) => {
      const f = balancers[name];
      if (f === undefined) throw new RpcError(`no loadbalance ${name}`, Code.FailedPrecondition);
      return f;
    },
    warn: (message) => void warnings.push(message),
    random: createSeededRandom(1),
    ...extra,
  };
}

function consumer(params: Record<string, string | number> = {}): Url {
  return new Url({
    protocol: "consumer",
    host: "127.0.0.1",
    port: 0,
    path: SERVICE,
    params: { interface: SERVICE, ...params },
  });
}

function call(extra: Partial<Invocation> = {}): Invocation {
  return { ...createInvocation({ service: SERVICE, method: "sayHello", args: ["x"] }), ...extra };
}

function build(
  cluster: Cluster,
  invokers: FakeInvoker[],
  params: Record<string, string | number> = {},
  ctx = testContext(),
) {
  const directory = new StaticDirectory(consumer(params), invokers);
  return { invoker: cluster(directory, ctx), directory, ctx };
}

/** Promises created while `run` starts its call (its synchronous part, where every layer makes its own). */
function promisesDuring(run: () => Promise<unknown>): Promise<number> {
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") promises++;
    },
  });
  hook.enable();
  const running = run();
  hook.disable();
  return running.then(() => promises);
}

const total = (invokers: FakeInvoker[]) => invokers.reduce((n, i) => n + i.calls, 0);

describe("cluster - failover", () => {
  it("failover - retries on another provider and succeeds, each attempt carrying the call", async () => {
    const invokers = createFakeInvokers(3);
    invokers[0]!.failTimes(1); // round robin over equal weights starts with the first
    const { invoker } = build(failoverCluster, invokers, { loadbalance: "roundrobin" });
    const inv = call();
    const result = await invoker.invoke(inv);
    assert.equal(total(invokers), 2);
    const used = invokers.filter((i) => i.calls === 1);
    assert.equal(used.length, 2, "the second attempt went to an untried provider");
    assert.equal(result.value, used[1]!.address);
    for (const u of used) {
      assert.equal(u.lastInvocation?.method, inv.method);
      assert.deepEqual(u.lastInvocation?.args, inv.args);
      assert.deepEqual(u.lastInvocation?.attachments, inv.attachments);
    }
  });

  it("failover - stops after retries+1 attempts with the last error's code and the providers tried", async () => {
    const invokers = createFakeInvokers(2).map((i) => i.alwaysFail());
    const { invoker } = build(failoverCluster, invokers, { retries: 3 });
    await assert.rejects(invoker.invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError);
      assert.equal(e.code, Code.Unavailable);
      assert.match(e.message, /tried 4 time\(s\)/);
      assert.match(e.message, /127\.0\.0\.1:20880/);
      assert.match(e.message, /127\.0\.0\.1:20881/);
      return true;
    });
    assert.equal(total(invokers), 4);
  });

  it("failover - per-method retries and retries=0 mean one call", async () => {
    const invokers = createFakeInvokers(3).map((i) => i.alwaysFail());
    const { invoker } = build(failoverCluster, invokers, { retries: 5, "sayHello.retries": 0 });
    await assert.rejects(invoker.invoke(call()));
    assert.equal(total(invokers), 1);
  });

  it("failover - never retries a business error or a canceled call", async () => {
    const invokers = createFakeInvokers(3);
    for (const i of invokers) i.throwBizError("no such user", "com.example.NoUserException");
    const { invoker } = build(failoverCluster, invokers);
    await assert.rejects(
      invoker.invoke(call()),
      (e: unknown) => e instanceof BizError && e.javaClass === "com.example.NoUserException",
    );
    assert.equal(total(invokers), 1);
    const canceled = createFakeInvokers(3);
    for (const i of canceled) i.failTimes(1, new RpcError("caller gave up", Code.Canceled));
    await assert.rejects(build(failoverCluster, canceled).invoker.invoke(call()), /caller gave up/);
    assert.equal(total(canceled), 1);
  });

  it("failover - retries every other failure on another provider, as Java does", async () => {
    const failures = [
      new RpcError("service not found (SERVICE_NOT_FOUND 60)", Code.Unimplemented),
      new RpcError("provider handler failed (SERVICE_ERROR 70)", Code.Unknown),
      new RpcError("cannot serialize", Code.InvalidArgument),
      new RpcError("server error", Code.Internal),
      new TypeError("a filter broke"),
    ];
    for (const failure of failures) {
      const invokers = createFakeInvokers(2);
      invokers[0]!.failTimes(1, failure);
      const { invoker } = build(failoverCluster, invokers, { loadbalance: "roundrobin" });
      const result = await invoker.invoke(call());
      assert.equal(total(invokers), 2, `${failure.message} is retried`);
      assert.equal(
        result.value,
        invokers[1]!.address,
        `${failure.message}: the retry went to the other provider`,
      );
    }
  });

  it("failover - skips unavailable providers and re-lists between attempts", async () => {
    const invokers = createFakeInvokers(3);
    invokers[0]!.setAvailable(false);
    invokers[1]!.failTimes(1);
    invokers[2]!.failTimes(1);
    const { invoker, directory } = build(failoverCluster, invokers, { retries: 2 });
    const fresh = new FakeInvoker({ address: "127.0.0.1:30000" });
    // After the first failure the directory learns of a new provider; the retry must see it.
    const first = invokers[1]!.invoke.bind(invokers[1]!);
    invokers[1]!.invoke = async (inv) => {
      directory.setInvokers([...invokers, fresh]);
      return first(inv);
    };
    invokers[2]!.invoke = invokers[1]!.invoke;
    const result = await invoker.invoke(call());
    assert.equal(invokers[0]!.calls, 0, "unavailable provider never called");
    assert.ok(
      result.value === fresh.address ||
        result.value === invokers[1]!.address ||
        result.value === invokers[2]!.address,
    );
    assert.ok(fresh.calls + invokers[1]!.calls + invokers[2]!.calls <= 3);
  });

  it("failover - all attempts share the deadline; a hung provider ends the call at the deadline", async () => {
    const invokers = createFakeInvokers(2).map((i) => i.hangTimes(5));
    const { invoker } = build(failoverCluster, invokers, { retries: 5 });
    const controller = new AbortController();
    const deadline = Date.now() + 50;
    const timer = setTimeout(() => controller.abort(new RpcError("deadline", Code.DeadlineExceeded)), 50);
    await assert.rejects(invoker.invoke(call({ signal: controller.signal, deadline })), (e: unknown) => {
      assert.ok(e instanceof RpcError);
      assert.equal(e.code, Code.DeadlineExceeded);
      return true;
    });
    clearTimeout(timer);
    assert.equal(total(invokers), 1, "no new attempt after the shared deadline");
  });

  it("failover - counts calls in the consumer statistics", async () => {
    const rpcStatus = new RpcStatusTable();
    const invokers = createFakeInvokers(1);
    invokers[0]!.failTimes(1);
    const { invoker } = build(failoverCluster, invokers, {}, testContext({ rpcStatus }));
    await invoker.invoke(call());
    const status = rpcStatus.of(invokers[0]!.url, "sayHello");
    assert.equal(status.total, 2);
    assert.equal(status.failed, 1);
    assert.equal(status.active, 0);
  });

  it("failover - a call that succeeds at once adds one promise, whose handler both records the statistics and retries", async () => {
    const invokers = createFakeInvokers(1);
    const provider = await promisesDuring(() => invokers[0]!.invoke(call()));
    const plain = build(failoverCluster, invokers).invoker;
    assert.equal(await promisesDuring(() => plain.invoke(call())), provider + 1);
    const counted = build(failoverCluster, invokers, {}, testContext({ rpcStatus: new RpcStatusTable() }));
    assert.equal(await promisesDuring(() => counted.invoker.invoke(call())), provider + 1);
  });

  it("failover - over invokers with a consumer filter chain, counts as over bare ones, in the chain's promise step", async () => {
    /** Calls that succeed, fail once and retry, and answer a business error; the statistics after. */
    const scenario = async (chained: boolean) => {
      const fakes = createFakeInvokers(2);
      const invokers = chained ? fakes.map((fake) => buildFilterChain(fake, [consumerContextFilter])) : fakes;
      const rpcStatus = new RpcStatusTable();
      const ctx = testContext({ rpcStatus });
      const invoker = failoverCluster(
        new StaticDirectory(consumer({ loadbalance: "roundrobin" }), invokers),
        ctx,
      );
      await invoker.invoke(call());
      const promises = await promisesDuring(() => invoker.invoke(call()));
      fakes[0]!.failTimes(1);
      await invoker.invoke(call());
      fakes[0]!.throwBizError("no such user");
      await assert.rejects(invoker.invoke(call()), BizError);
      const stats = fakes.map((fake) => ({
        ...rpcStatus.of(fake.url, "sayHello"),
        totalElapsedMs: 0,
        failedElapsedMs: 0,
        maxElapsedMs: 0,
      }));
      return {
        promises,
        stats,
        chainAlone: chained ? await promisesDuring(() => invokers[0]!.invoke(call())) : 0,
      };
    };
    const bare = await scenario(false);
    const chained = await scenario(true);
    assert.deepEqual(chained.stats, bare.stats);
    assert.deepEqual(
      bare.stats.map((s) => [s.total, s.failed, s.active]),
      [
        [3, 1, 0],
        [2, 0, 0],
      ],
      "one success each, a failed attempt retried on the other, a business error counted as a success",
    );
    assert.equal(chained.promises, chained.chainAlone, "no promise of the cluster's over a chained invoker");
  });
});

describe("cluster - select", () => {
  it("select - sticky keeps the last provider while it is available", async () => {
    const invokers = createFakeInvokers(4);
    const { invoker } = build(failoverCluster, invokers, { sticky: "true" });
    const first = (await invoker.invoke(call())).value;
    for (let i = 0; i < 20; i++) assert.equal((await invoker.invoke(call())).value, first);
    invokers.find((i) => i.address === first)!.setAvailable(false);
    const next = (await invoker.invoke(call())).value;
    assert.notEqual(next, first);
    for (let i = 0; i < 5; i++) assert.equal((await invoker.invoke(call())).value, next);
  });

  it("select - a single candidate is called even when unavailable (Java's doSelect)", async () => {
    const invokers = createFakeInvokers(1);
    invokers[0]!.setAvailable(false);
    assert.equal((await build(failfastCluster, invokers).invoker.invoke(call())).value, invokers[0]!.address);
    const off = build(failfastCluster, invokers, { "cluster.availablecheck": "false" });
    assert.equal((await off.invoker.invoke(call())).value, invokers[0]!.address);
  });

  it("select - cluster.availablecheck=false calls an unavailable pick and never reuses the sticky one", async () => {
    const invokers = createFakeInvokers(4).map((i) => i.setAvailable(false));
    const { invoker } = build(failoverCluster, invokers, {
      sticky: "true",
      "cluster.availablecheck": "false",
    });
    const picked = new Set<unknown>();
    for (let i = 0; i < 20; i++) picked.add((await invoker.invoke(call())).value);
    assert.equal(total(invokers), 20, "unavailable providers are called, one attempt each");
    assert.ok(picked.size > 1, "with the check off, Java's select does not return the sticky provider");
  });

  it("select - when reselect finds nothing usable, the next index is called as is", async () => {
    const invokers = createFakeInvokers(3).map((i) => i.setAvailable(false));
    const { invoker } = build(failfastCluster, invokers);
    const value = (await invoker.invoke(call())).value;
    assert.equal(total(invokers), 1);
    assert.ok(invokers.some((i) => i.address === value));
  });

  it("select - context attachments are bound into the invocation, the call's own win", async () => {
    const invokers = createFakeInvokers(1);
    const ctx = testContext({ contextAttachments: () => ({ traceId: "t-1", tag: "ctx" }) });
    const { invoker } = build(failfastCluster, invokers, {}, ctx);
    await invoker.invoke(call({ attachments: { tag: "own" } }));
    assert.deepEqual(invokers[0]!.lastInvocation!.attachments, { tag: "own", traceId: "t-1" });
  });

  it("select - RpcContext attachments (including a pinpoint) bind when the app gives no hook", async () => {
    const invokers = createFakeInvokers(3);
    const { invoker } = build(failoverCluster, invokers);
    await runWithRpcContext(async (ctx) => {
      ctx.setAttachment("traceId", "t-2").setAttachment(PINPOINT_KEY, "127.0.0.1:20882");
      await invoker.invoke(call());
    });
    assert.equal(invokers[2]!.calls, 1);
    assert.deepEqual(invokers[2]!.lastInvocation!.attachments, { traceId: "t-2" });
  });

  it("select - a framework invocation's lazy signal survives the context binding and the pinpoint strip", async () => {
    const invokers = createFakeInvokers(2);
    invokers[1]!.script({ kind: "hang" });
    const { invoker } = build(failfastCluster, invokers, { timeout: 60_000 });
    const caller = new AbortController();
    // Its signal is a getter of its class, which a spread would not copy.
    class LazyInvocation extends LazySignalInvocation {
      protected currentSignal(): AbortSignal {
        return caller.signal;
      }
    }
    const inv = new LazyInvocation({ ...call(), attachments: { [PINPOINT_KEY]: "127.0.0.1:20881" } });
    const pending = runWithRpcContext((ctx) => {
      ctx.setAttachment("traceId", "t-3");
      return invoker.invoke(inv);
    });
    caller.abort(new Error("caller went away"));
    await assert.rejects(pending, (error: RpcError) => error.code === Code.Canceled);
    assert.deepEqual(invokers[1]!.lastInvocation!.attachments, { traceId: "t-3" });
  });

  it("select - a pinpoint address bypasses balancing and is not forwarded", async () => {
    const invokers = createFakeInvokers(3);
    const { invoker } = build(failoverCluster, invokers);
    for (let i = 0; i < 10; i++) {
      const r = await invoker.invoke(call({ attachments: { [PINPOINT_KEY]: "127.0.0.1:20881" } }));
      assert.equal(r.value, "127.0.0.1:20881");
    }
    assert.equal(invokers[1]!.calls, 10);
    assert.equal(PINPOINT_KEY in invokers[1]!.lastInvocation!.attachments, false);
    await assert.rejects(
      invoker.invoke(call({ attachments: { [PINPOINT_KEY]: "10.9.9.9:1" } })),
      /pinpoint=10\.9\.9\.9:1 .*not a known provider; known providers: 127\.0\.0\.1:20880, 127\.0\.0\.1:20881, 127\.0\.0\.1:20882/,
    );
  });

  it("select - the no-provider error lists each provider and why it was excluded", async () => {
    const invokers = createFakeInvokers(3);
    invokers[1]!.setAvailable(false);
    const blocked = new Set([20880, 20881]);
    const blocking: Router = {
      name: "condition",
      priority: 0,
      url: undefined,
      route: (list) => list.filter((i) => !blocked.has(i.url.port)),
    };
    class Disabling extends StaticDirectory {
      override excluded() {
        return new Map([["10.0.0.9:20880", { kind: "disabled" as const, detail: "override disabled=true" }]]);
      }
    }
    const directory = new Disabling(consumer({ group: "g", version: "1.0" }), invokers, [blocking]);
    // The only candidate fails, drops its connection and a rule change routes it away: the retry finds nothing.
    const third = invokers[2]!;
    third.invoke = async () => {
      third.setAvailable(false);
      blocked.add(20882);
      throw new RpcError("connection reset", Code.Unavailable);
    };
    const inv = failoverCluster(directory, testContext());
    await assert.rejects(inv.invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError);
      assert.equal(e.code, Code.Unavailable);
      const m = e.message;
      assert.match(m, /no provider available for g\/com\.example\.DemoService:1\.0 method sayHello/);
      assert.match(m, /127\.0\.0\.1:20880 \(excluded by router "condition"\)/);
      assert.match(m, /127\.0\.0\.1:20881 \(excluded by router "condition", unavailable/);
      assert.match(
        m,
        /127\.0\.0\.1:20882 \(excluded by router "condition", already tried for this call, unavailable/,
      );
      assert.match(m, /10\.0\.0\.9:20880 \(disabled \(override disabled=true\)\)/);
      return true;
    });
    const empty = failfastCluster(new StaticDirectory(consumer(), []), testContext());
    await assert.rejects(empty.invoke(call()), /knows no provider: check that providers are started/);
  });
});

describe("cluster - no-provider error", () => {
  it("no provider - lists the near misses: same interface, other group or version, with address", async () => {
    class Missing extends StaticDirectory {
      nearMisses() {
        return [
          { address: "10.0.0.5:20880", group: "blue", version: "1.0.0" },
          { address: "10.0.0.6:20880", group: undefined, version: "2.0.0" },
        ];
      }
    }
    const directory = new Missing(consumer({ group: "green", version: "1.0.0" }), []);
    await assert.rejects(failoverCluster(directory, testContext()).invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError && e.code === Code.Unavailable);
      assert.match(
        e.message,
        /no provider available for green\/com\.example\.DemoService:1\.0\.0 method sayHello: no provider matches group=green, version=1\.0\.0, but 2 provider\(s\) of com\.example\.DemoService are registered with another group or version: 10\.0\.0\.5:20880 \(group=blue, version=1\.0\.0\); 10\.0\.0\.6:20880 \(group=\(none\), version=2\.0\.0\)\. Set the reference options group and version/,
      );
      return true;
    });
  });

  it("no provider - beyond a handful of providers it summarises: counts per reason, a few examples", async () => {
    const invokers = Array.from(
      { length: 10_000 },
      (_, i) => new FakeInvoker({ address: `10.${Math.trunc(i / 250)}.${i % 250}.1:20880` }),
    );
    const none: Router = { name: "condition", priority: 0, url: undefined, route: () => [] };
    const routed = failoverCluster(new StaticDirectory(consumer(), invokers, [none]), testContext());
    await assert.rejects(routed.invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError);
      assert.ok(e.message.length < 1_000, `${e.message.length} characters`);
      assert.match(
        e.message,
        /10000 known: 10000 excluded by router "condition" \(e\.g\. 10\.0\.0\.1:20880, 10\.0\.1\.1:20880, 10\.0\.2\.1:20880, …\)/,
      );
      return true;
    });
    class Missing extends StaticDirectory {
      nearMisses() {
        return invokers.map((i, n) => ({ address: i.address, group: `g${n % 9}`, version: undefined }));
      }
    }
    const missing = failoverCluster(new Missing(consumer(), []), testContext());
    await assert.rejects(missing.invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError);
      assert.ok(e.message.length < 1_500, `${e.message.length} characters`);
      assert.match(e.message, /10000 provider\(s\) .* 1112 group=g0, version=\(none\) \(e\.g\. /);
      assert.match(e.message, /; 3333 more in 3 other kind\(s\)\. Set the reference options/);
      return true;
    });
  });
});

describe("cluster - other strategies", () => {
  it("failfast - one call, failure reported with the provider", async () => {
    const invokers = createFakeInvokers(2).map((i) => i.alwaysFail());
    await assert.rejects(build(failfastCluster, invokers).invoker.invoke(call()), (e: unknown) => {
      assert.ok(e instanceof RpcError && e.code === Code.Unavailable);
      assert.match(
        e.message,
        /failfast call to com\.example\.DemoService method sayHello on 127\.0\.0\.1:2088[01]/,
      );
      return true;
    });
    assert.equal(total(invokers), 1);
  });

  it("failsafe - swallows framework failures with a warning, passes business errors", async () => {
    const invokers = createFakeInvokers(2).map((i) => i.alwaysFail());
    const { invoker, ctx } = build(failsafeCluster, invokers);
    const result = await invoker.invoke(call());
    assert.equal(result.value, null);
    assert.equal(total(invokers), 1);
    assert.equal(ctx.warnings.length, 1);
    const biz = createFakeInvokers(1);
    biz[0]!.throwBizError();
    await assert.rejects(build(failsafeCluster, biz).invoker.invoke(call()), BizError);
  });

  it("failsafe - a canceled call stays canceled: the caller's own abort is not swallowed", async () => {
    const canceled = createFakeInvokers(1);
    canceled[0]!.failTimes(1, new RpcError("the caller aborted", Code.Canceled));
    await assert.rejects(build(failsafeCluster, canceled).invoker.invoke(call()), {
      code: Code.Canceled,
    });
  });

  it("failback - returns null now and succeeds in the background", async () => {
    const invokers = createFakeInvokers(1);
    invokers[0]!.failTimes(2);
    const ctx = testContext();
    const directory = new StaticDirectory(consumer({ "failback.period": 5 }), invokers);
    const invoker = new FailbackClusterInvoker(directory, ctx);
    assert.equal((await invoker.invoke(call())).value, null);
    assert.equal(invoker.pendingRetries, 1);
    for (let i = 0; i < 200 && invoker.pendingRetries > 0; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(invoker.pendingRetries, 0);
    assert.equal(invokers[0]!.calls, 3, "first call, one failed retry, one successful retry");
    assert.ok(!invokers[0]!.invocations[2]!.signal.aborted, "a retry runs with its own live signal");
    await invoker.destroy();
  });

  it("failback - gives up after retries, caps pending tasks, destroy stops retries", async () => {
    const invokers = createFakeInvokers(1).map((i) => i.alwaysFail());
    const ctx = testContext();
    const limited = new FailbackClusterInvoker(
      new StaticDirectory(consumer({ "failback.period": 2, retries: 2 }), invokers),
      ctx,
    );
    await limited.invoke(call());
    for (let i = 0; i < 200 && limited.pendingRetries > 0; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(invokers[0]!.calls, 3, "one call and two retries");
    assert.ok(ctx.warnings.some((w) => /giving up .* after 2 background retries/.test(w)));

    const negative = createFakeInvokers(1).map((i) => i.alwaysFail());
    const javaDefault = new FailbackClusterInvoker(
      new StaticDirectory(consumer({ "failback.period": 2, retries: -1 }), negative),
      testContext(),
    );
    await javaDefault.invoke(call());
    for (let i = 0; i < 200 && javaDefault.pendingRetries > 0; i++)
      await new Promise((r) => setTimeout(r, 5));
    assert.equal(negative[0]!.calls, 4, "retries=-1 means Java's default of 3 background retries");

    const capped = createFakeInvokers(1).map((i) => i.alwaysFail());
    const capCtx = testContext();
    const slow = new FailbackClusterInvoker(
      new StaticDirectory(consumer({ failbacktasks: 2 }), capped),
      capCtx,
    );
    for (let i = 0; i < 4; i++) await slow.invoke(call());
    assert.equal(slow.pendingRetries, 2);
    assert.ok(capCtx.warnings.some((w) => /failbacktasks=2/.test(w)));
    await slow.destroy();
    assert.equal(slow.pendingRetries, 0);
  });

  it("forking - first success wins and the losers' waits are aborted", async () => {
    const invokers = createFakeInvokers(3);
    invokers[0]!.hangTimes(1);
    invokers[1]!.hangTimes(1);
    invokers[2]!.latencyMs = 5;
    const { invoker } = build(forkingCluster, invokers, { forks: 0 });
    const result = await invoker.invoke(call());
    assert.equal(result.value, invokers[2]!.address);
    assert.equal(total(invokers), 3);
    assert.equal(invokers[0]!.aborted + invokers[1]!.aborted, 2);
  });

  it("forking - forks=2 calls two providers; all failing gives an error; timeout bounds it", async () => {
    const invokers = createFakeInvokers(4).map((i) => i.alwaysFail());
    await assert.rejects(
      build(forkingCluster, invokers, { forks: 2 }).invoker.invoke(call()),
      /failed on all 2 providers/,
    );
    assert.equal(total(invokers), 2);
    const hung = createFakeInvokers(2).map((i) => i.hangTimes(1));
    await assert.rejects(
      build(forkingCluster, hung, { timeout: 20 }).invoker.invoke(call()),
      (e: unknown) => {
        assert.ok(e instanceof RpcError && e.code === Code.DeadlineExceeded);
        return true;
      },
    );
    // The forking deadline and each attempt's own timeout are both 20 ms: whichever fires first,
    // neither fork may stay pending.
    assert.equal(hung[0]!.inFlight + hung[1]!.inFlight, 0);
  });

  it("broadcast - calls every provider and fails if any failed", async () => {
    const invokers = createFakeInvokers(4);
    invokers[1]!.failTimes(1);
    const { invoker } = build(broadcastCluster, invokers);
    await assert.rejects(invoker.invoke(call()), /fake provider 127\.0\.0\.1:20881/);
    assert.deepEqual(
      invokers.map((i) => i.calls),
      [1, 1, 1, 1],
    );
    const ok = await invoker.invoke(call());
    assert.equal(ok.value, invokers[3]!.address);
  });

  it("broadcast - broadcast.fail.percent stops after that share failed", async () => {
    const invokers = createFakeInvokers(4).map((i) => i.alwaysFail());
    await assert.rejects(
      build(broadcastCluster, invokers, { "broadcast.fail.percent": 50 }).invoker.invoke(call()),
    );
    // threshold = 4 * 50% = 2: the third failure stops the loop, as Java's failIndex check does
    assert.deepEqual(
      invokers.map((i) => i.calls),
      [1, 1, 1, 0],
    );
    const zero = createFakeInvokers(3).map((i) => i.alwaysFail());
    await assert.rejects(
      build(broadcastCluster, zero, { "broadcast.fail.percent": 0 }).invoker.invoke(call()),
    );
    assert.deepEqual(
      zero.map((i) => i.calls),
      [1, 0, 0],
    );
  });

  it("available - calls the first available provider only", async () => {
    const invokers = createFakeInvokers(3);
    invokers[0]!.setAvailable(false);
    const { invoker } = build(availableCluster, invokers);
    assert.equal((await invoker.invoke(call())).value, invokers[1]!.address);
    assert.deepEqual(
      invokers.map((i) => i.calls),
      [0, 1, 0],
    );
    for (const i of invokers) i.setAvailable(false);
    await assert.rejects(invoker.invoke(call()), /127\.0\.0\.1:20882 \(unavailable/);
  });

  it("destroy - a destroyed cluster refuses calls and destroys its directory", async () => {
    const invokers = createFakeInvokers(2);
    const { invoker, directory } = build(failoverCluster, invokers);
    await invoker.destroy();
    assert.equal(invoker.isAvailable(), false);
    assert.equal(directory.destroyed, true);
    assert.ok(invokers.every((i) => i.destroyed));
    await assert.rejects(invoker.invoke(call()), /destroyed/);
  });
});
