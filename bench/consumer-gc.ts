/**
 * How the e2e consumer's garbage is collected: per round of 100 000 calls, the scavenges and
 * mark-compacts with their time, and the old generation's size after it (what scavenges promoted:
 * objects that lived across the round trip, or were held by dead objects already promoted). Same
 * consumer and server as bench/consumer-allocations.ts, without a profiler attached, so the GC runs
 * as in the e2e bench. Run against the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/consumer-gc.ts [text|user] [concurrency] [rounds]`.
 */
import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import { withBenchConsumer } from "./e2e/consumer-under-test.js";

const WARMUP_CALLS = 30_000;
const CALLS_PER_ROUND = 100_000;

const [workload = "text", concurrencyArg = "64", roundsArg = "6"] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);

const GC_KINDS: Readonly<Record<number, string>> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenge",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "mark-compact",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental marking",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks",
};

function oldGenerationBytes(): number {
  return getHeapSpaceStatistics()
    .filter((space) => space.space_name !== "new_space")
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

await withBenchConsumer("consumer-gc", workload, concurrency, async (loop) => {
  await loop(WARMUP_CALLS);
  let collections = new Map<string, { count: number; ms: number }>();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as unknown as { detail: { kind: number } }).detail.kind] ?? "other";
      const seen = collections.get(kind) ?? { count: 0, ms: 0 };
      seen.count++;
      seen.ms += entry.duration;
      collections.set(kind, seen);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  process.stdout.write(`${workload}, c${concurrency}, rounds of ${CALLS_PER_ROUND} calls:\n`);
  for (let round = 1; round <= Number(roundsArg); round++) {
    const cpu = process.cpuUsage();
    const startedAt = performance.now();
    await loop(CALLS_PER_ROUND);
    const wallMs = performance.now() - startedAt;
    const used = process.cpuUsage(cpu);
    await new Promise((resolve) => setImmediate(resolve)); // the observer's last entries
    const per10k = (count: number) => ((count * 10_000) / CALLS_PER_ROUND).toFixed(1);
    let gcMs = 0;
    const kinds = [...collections].map(([kind, { count, ms }]) => {
      gcMs += ms;
      return `${kind} ${per10k(count)}/10k × ${(ms / count).toFixed(1)} ms`;
    });
    process.stdout.write(
      `  ${round}: ${((used.user + used.system) / CALLS_PER_ROUND).toFixed(1)} µs CPU/call, GC ${((gcMs / wallMs) * 100).toFixed(1)} % of wall; ${kinds.join(", ")}; old generation ${(oldGenerationBytes() / 1e6).toFixed(1)} MB\n`,
    );
    collections = new Map();
  }
  observer.disconnect();
});
