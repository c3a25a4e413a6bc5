// Our consumer calls a real Java Dubbo 2.7.23 provider (our Java program on Dubbo's plain API)
// directly and through a real ZooKeeper: every row of the README's type table, an exception with its
// cause, attachments both ways, $echo, a generic call with POJOs as maps, and the timeout, retries
// and token the Java provider registers. Its registered loadbalance, weight and warmup, and
// governance rules written through Java's own Registry API, give our consumer the same picks as a
// Java 2.7.23 consumer in the same ZooKeeper (the same split of every round, the same providers
// reached and not reached).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, startZooKeeper, type ZooKeeperServer } from "../../../scripts/zookeeper.mjs";
import { Code, RpcError } from "../../../src/core/index.js";
import { createDubbo, type DubboApplication, type GenericStub } from "../../../src/index.js";
import { INTEROP_SERVICE, InteropService, PickService } from "./interop-contract.js";
import {
  DUBBO_RELEASE,
  type JavaConsumer,
  type JavaProvider,
  javaLocalHost,
  startJavaConsumer,
  startJavaProvider,
} from "./java-peer.js";
import { type InteropStub, itCallsJavaProvider } from "./ts-consumer-cases.js";

/** One round of the weights 3 + 1: smooth weighted round robin serves each export its weight per round. */
const ROUND = 4;
/** Calls per pick command: whole rounds. */
const PICK_CALLS = 10 * ROUND;
/** A warm-up no test outlives: the provider's weight stays at its floor of 1 for the whole file. */
const ENDLESS_WARMUP_MS = 2 ** 31 - 1;
/** How often a consumer is asked again while a rule travels through ZooKeeper. */
const RULE_POLL_MS = 100;
const RULE_POLLS = 100;

describe(`our consumer to a Java Dubbo ${DUBBO_RELEASE["2.7"]} provider`, () => {
  let zk: ZooKeeperServer;
  let registry: string;
  let host: string;
  let port: number;
  /** The two PickService exports: weight 3 (warm), weight 100 (warming up, so weighing 1). */
  let picks: { warm: number; warming: number };
  let javaProvider: JavaProvider;
  let javaConsumer: JavaConsumer;
  let app: DubboApplication;
  const stubs: Partial<Record<"registry" | "direct", InteropStub>> = {};
  const generics: Partial<Record<"registry" | "direct", GenericStub>> = {};

  before(async () => {
    zk = await startZooKeeper();
    registry = `zookeeper://${zk.connectString}`;
    javaConsumer = startJavaConsumer("2.7");
    port = await freePort();
    picks = { warm: await freePort(), warming: await freePort() };
    // The JVMs start side by side (each takes seconds).
    [host] = await Promise.all([
      javaLocalHost(),
      startJavaProvider("2.7", registry, port, [
        { port: picks.warm, weight: 3, warmupMs: 1 },
        { port: picks.warming, weight: 100, warmupMs: ENDLESS_WARMUP_MS },
      ]).then((started) => {
        javaProvider = started;
      }),
    ]);
    app = await createDubbo({
      application: { name: "ts-consumer" },
      registry: { address: registry },
      env: false,
    });
    const direct = { url: `dubbo://${host}:${port}` };
    stubs.registry = await app.refer(InteropService);
    stubs.direct = await app.refer(InteropService, direct);
    generics.registry = await app.referGeneric(INTEROP_SERVICE);
    generics.direct = await app.referGeneric(INTEROP_SERVICE, direct);
  });

  after(async () => {
    await app?.stop();
    await javaConsumer?.stop();
    await javaProvider?.stop();
    await zk?.stop();
  });

  for (const way of ["registry", "direct"] as const) {
    itCallsJavaProvider(`java 2.7 provider (${way})`, () => ({
      stub: stubs[way] as InteropStub,
      generic: generics[way] as GenericStub,
    }));
  }

  it("java 2.7 provider (registry) - our consumer honours the timeout=3000 the Java provider registers", async () => {
    // Dubbo's default of 1000 ms would give up on this call.
    assert.equal(await (stubs.registry as InteropStub).sleep(1500), "slept 1500");
  });

  it("java 2.7 provider (registry) - our consumer honours sleepCounted.retries=0 and its 300 ms timeout", async () => {
    const service = stubs.registry as InteropStub;
    const tag = `ts-${Date.now()}`;
    await assert.rejects(
      service.sleepCounted(tag, 600),
      (e) => e instanceof RpcError && e.code === Code.DeadlineExceeded,
    );
    await sleep(700); // every attempt would have reached the provider by now
    assert.equal(await service.count(tag), 1);
  });

  it("java 2.7 consumer (direct) to the Java provider - the reply attachment does not reach Java's RpcContext", async () => {
    // Java's own behaviour, the same with our provider (java-consumer-to-ts-provider.test.ts): a
    // reference to one url= gets no cluster invoker, so ConsumerContextClusterInterceptor never
    // copies the response's attachments into RpcContext.getServerContext().
    const [line] = await javaConsumer.command(`attachments dubbo://${host}:${port}`);
    assert.deepEqual(line?.result, { received: "ping", replied: null });
  });

  describe("load balancing and governance rules, against a Java consumer", () => {
    let ours: Awaited<ReturnType<typeof referPicks>>;
    // No balancer of its own: the provider registers loadbalance=roundrobin.
    const referPicks = () => app.refer(PickService);

    before(async () => {
      ours = await referPicks();
    });

    async function ourPicks(): Promise<number[]> {
      const ports: number[] = [];
      for (let i = 0; i < PICK_CALLS; i++) ports.push(await ours.whoAmI());
      return ports;
    }

    async function javaPicks(): Promise<number[]> {
      const [line] = await javaConsumer.command(`picks ${registry} ${PICK_CALLS}`);
      if (!Array.isArray(line?.picks)) throw new Error(`the Java consumer answered ${JSON.stringify(line)}`);
      return line.picks.map(Number);
    }

    /** How many of the calls each port served. */
    function tally(ports: readonly number[]): Record<string, number> {
      const counts: Record<string, number> = {};
      for (const port of ports) {
        const name = port === picks.warm ? "warm" : port === picks.warming ? "warming" : String(port);
        counts[name] = (counts[name] ?? 0) + 1;
      }
      return counts;
    }

    /**
     * Which exports a consumer reaches once a rule has arrived: asked until it reaches `expected`.
     * A round that fails while the rule is being applied is asked again (Java's consumer was seen
     * sending a Java provider a stale token for one call just after an override reached both);
     * a consumer that never answers a whole round fails with its last error.
     */
    async function reachedOnceSettled(
      pick: () => Promise<number[]>,
      expected: readonly string[],
    ): Promise<string[]> {
      let reached: string[] | undefined;
      let lastError: unknown;
      for (let i = 0; i < RULE_POLLS; i++) {
        try {
          reached = Object.keys(tally(await pick())).sort();
          if (reached.join() === [...expected].sort().join()) return reached;
        } catch (error) {
          lastError = error;
        }
        await sleep(RULE_POLL_MS);
      }
      if (reached === undefined) throw lastError;
      return reached;
    }

    /** Writes `rule` through Java's Registry API; both consumers then reach exactly `expected`. */
    async function withRule(rule: string, expected: readonly string[]): Promise<void> {
      await javaConsumer.command(`register ${registry} ${rule}`);
      try {
        const reached = {
          java: await reachedOnceSettled(javaPicks, expected),
          ours: await reachedOnceSettled(ourPicks, expected),
        };
        assert.deepEqual(reached, { java: [...expected].sort(), ours: reached.java });
      } finally {
        await javaConsumer.command(`unregister ${registry} ${rule}`);
        await reachedOnceSettled(javaPicks, ["warm", "warming"]);
        await reachedOnceSettled(ourPicks, ["warm", "warming"]);
      }
    }

    /** The split of each round of consecutive calls. */
    function rounds(ports: readonly number[]): Record<string, number>[] {
      const split: Record<string, number>[] = [];
      for (let i = 0; i < ports.length; i += ROUND) split.push(tally(ports.slice(i, i + ROUND)));
      return split;
    }

    // First of this block: both balancers start fresh, so every round is a whole one.
    it("java 2.7 provider - its registered loadbalance, weight and warmup make both consumers' rounds 3 : 1", async () => {
      const split = { java: rounds(await javaPicks()), ours: rounds(await ourPicks()) };
      // weight 3 against weight 100 warming up (its floor, 1), round robin: 3 of every 4 calls.
      const expected = Array.from({ length: PICK_CALLS / ROUND }, () => ({ warm: 3, warming: 1 }));
      assert.deepEqual(split, { java: expected, ours: expected });
    });

    it("java 2.7 provider - our consumer sends the token the Java provider registers (token=true)", async () => {
      const port = await ours.whoAmI();
      assert.ok(port === picks.warm || port === picks.warming, `answered by ${port}`);
    });

    it("java 2.7 provider - an override disabling one provider leaves both consumers the other", async () => {
      await withRule(
        `override://${host}:${picks.warm}/com.foo.PickService?category=configurators&dynamic=false&disabled=true`,
        ["warming"],
      );
    });

    it("java 2.7 provider - a consumer-side override of weight=0 takes one provider out of both consumers' picks", async () => {
      // side=consumer: the provider keeps its URL (Java re-registers a provider an override changes),
      // so each consumer applies this rule itself.
      await withRule(
        `override://0.0.0.0/com.foo.PickService?category=configurators&dynamic=false&side=consumer&providerAddresses=${host}:${picks.warm}&weight=0`,
        ["warming"],
      );
    });

    it("java 2.7 provider - a condition rule `=> address = X` sends both consumers to X only", async () => {
      const rule = encodeURIComponent(`=> address = ${host}:${picks.warm}`);
      await withRule(
        `condition://0.0.0.0/com.foo.PickService?category=routers&dynamic=false&force=true&runtime=false&rule=${rule}`,
        ["warm"],
      );
    });
  });
});
