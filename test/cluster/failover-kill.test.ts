// End to end over real sockets: three provider processes behind one failover reference; one of them
// dies (SIGKILL) or shuts down gracefully (SIGTERM) while 16 calls are in flight. The user-visible
// promise is that no call fails and the survivors take over. Counts only, no timing assertions.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createDubbo, Url } from "../../src/index.js";
import { createRecordingLogger, pollUntil } from "../../src/testing/index.js";
import { CLUSTER_SERVICE_INTERFACE, ClusterService } from "./fixtures/cluster-service.js";
import { describeFailures, type Load, seededRandom, startLoad } from "./load.js";
import {
  type ClusterProvider,
  directUrls,
  killAll,
  spawnClusterProviders,
} from "./spawn-cluster-provider.js";

const CONCURRENCY = 16;
/** Hard cap on calls per scenario; the scenario normally stops far earlier. */
const MAX_CALLS = 6_000;
/** Calls the survivors must serve after the victim is gone, so "the rest" is a real load. */
const CALLS_AFTER_EXIT = 400;
const PROVIDER_LATENCY_MS = 10;

const started: ClusterProvider[] = [];
after(() => killAll(started));

const collectingLogger = createRecordingLogger;

async function killMidLoad(signal: "SIGKILL" | "SIGTERM") {
  const providers = await spawnClusterProviders([
    { id: "p1", latencyMs: PROVIDER_LATENCY_MS },
    { id: "p2", latencyMs: PROVIDER_LATENCY_MS },
    { id: "p3", latencyMs: PROVIDER_LATENCY_MS },
  ]);
  started.push(...providers);
  const [victim, ...survivors] = providers as [ClusterProvider, ...ClusterProvider[]];
  const logger = collectingLogger();
  await using app = await createDubbo({
    application: { name: "cluster-consumer" },
    env: false,
    random: seededRandom(20_240_601),
    logger,
  });
  const stub = await app.refer(ClusterService, {
    url: directUrls(providers),
    cluster: "failover",
    retries: 2,
    timeoutMs: 5_000,
  });
  // The consumer-side in-flight count of the victim, as the cluster records it.
  const victimUrl = Url.parse(`dubbo://127.0.0.1:${victim.port}/${CLUSTER_SERVICE_INTERFACE}`);
  const victimActive = () => app.extensions.rpcStatus.of(victimUrl, "whoami").active;

  const load: Load = startLoad((seq) => stub.whoami(`call ${seq}`), {
    concurrency: CONCURRENCY,
    maxCalls: MAX_CALLS,
  });
  try {
    // Mid-load: the victim has served calls and has calls in flight when the signal lands.
    const busy = await pollUntil(() => load.served(victim.id) >= 30 && victimActive() > 0, 15_000);
    assert.ok(busy, `the victim never had calls in flight (served ${load.served(victim.id)})`);
    const issuedAtSignal = load.issued;
    victim.kill(signal);
    const gone = await pollUntil(() => victim.hasExited(), 15_000);
    assert.ok(gone, `${victim.id} did not exit within 15 s of ${signal}: ${victim.stderr()}`);
    const issuedAtExit = load.issued;
    const enough = await pollUntil(() => load.issued >= issuedAtExit + CALLS_AFTER_EXIT, 30_000);
    await load.stop();
    assert.ok(enough, `only ${load.issued - issuedAtExit} calls were issued after the exit`);
    const victimFailedAttempts = app.extensions.rpcStatus.of(victimUrl, "whoami").failed;
    return { victim, survivors, load, issuedAtSignal, issuedAtExit, logger, victimFailedAttempts };
  } finally {
    await load.stop();
  }
}

describe("cluster failover over real sockets (3 provider processes)", () => {
  for (const signal of ["SIGKILL", "SIGTERM"] as const) {
    const how = signal === "SIGKILL" ? "killed (SIGKILL)" : "stopped gracefully (SIGTERM, READONLY)";
    it(`failover - one provider ${how} mid-load: every call succeeds, the survivors serve the rest`, async () => {
      const result = await killMidLoad(signal);
      const { victim, survivors, load, issuedAtSignal, issuedAtExit } = result;
      const outcomes = load.outcomes;

      // Zero failures: the retries (2) absorb the calls the victim dropped.
      assert.equal(
        outcomes.filter((o) => o.error !== undefined).length,
        0,
        `${describeFailures(outcomes)}\nconsumer warnings: ${result.logger.messages("warn").slice(0, 5).join("\n")}`,
      );
      assert.equal(outcomes.length, load.issued, "every issued call settled");

      // The victim served calls before the signal ...
      const servedBeforeSignal = outcomes.filter((o) => o.seq < issuedAtSignal && o.servedBy === victim.id);
      assert.ok(servedBeforeSignal.length >= 30, `victim served ${servedBeforeSignal.length} calls before`);
      // ... and none issued after its process was gone (in-flight ones at the signal may finish).
      const afterExit = outcomes.filter((o) => o.seq >= issuedAtExit);
      assert.ok(afterExit.length >= CALLS_AFTER_EXIT);
      assert.equal(afterExit.filter((o) => o.servedBy === victim.id).length, 0);

      // The two survivors served the rest, each a fair part of it (random over 2: ~50 % each;
      // 30 % is more than 8 standard deviations below that for 400 calls).
      for (const survivor of survivors) {
        const share = afterExit.filter((o) => o.servedBy === survivor.id).length / afterExit.length;
        assert.ok(share > 0.3, `${survivor.id} served ${(share * 100).toFixed(1)} % after the exit`);
      }
      const ids = new Set(outcomes.map((o) => o.servedBy));
      assert.deepEqual([...ids].sort(), ["p1", "p2", "p3"]);

      if (signal === "SIGKILL") {
        // The kill cut calls in flight (their attempts failed on the victim), and failover retried
        // every one of them elsewhere: this is what makes "zero failures" meaningful.
        assert.ok(result.victimFailedAttempts > 0, "the kill hit no call in flight");
      } else {
        assert.equal(await victim.exited, 0, "graceful stop exits 0");
      }
    });
  }
});
