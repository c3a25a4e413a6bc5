/**
 * JS heap bytes one end-to-end call allocates in the consumer, and the allocating sites that take
 * the most (each with its caller): the figure that holds still on a loaded machine. The provider
 * runs in its own process (bench/e2e-server.ts); this process is the e2e bench's dubbo-ts consumer
 * (createDubbo, refer by url, the `trace` attachment in runWithRpcContext) with N callers in a
 * closed loop, under V8's sampling heap profiler (objects collected by GC counted too). Run against
 * the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/consumer-allocations.ts [text|user] [concurrency] [top]`.
 */
import { Session } from "node:inspector/promises";
import { withBenchConsumer } from "./e2e/consumer-under-test.js";

const WARMUP_CALLS = 20_000;
const CALLS = 40_000;
/** Bytes between samples: small, so a few bytes per call still show. */
const SAMPLING_INTERVAL = 64;

interface SamplingNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

const [workload = "text", concurrencyArg = "64", topArg = "20"] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);

function siteOf(node: SamplingNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || "(anonymous)"} ${url.replace(/^.*\/(dist|src|bench)\//, "$1/")}:${lineNumber + 1}`;
}

await withBenchConsumer("consumer-allocations", workload, concurrency, async (loop) => {
  await loop(WARMUP_CALLS);
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: SAMPLING_INTERVAL,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await loop(CALLS);
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as {
    profile: { head: SamplingNode };
  };
  session.disconnect();
  const bySite = new Map<string, number>();
  let total = 0;
  const walk = (node: SamplingNode, caller: string): void => {
    const site = siteOf(node);
    const key = `${site}  <  ${caller}`;
    bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child, site);
  };
  walk(profile.head, "");
  process.stdout.write(
    `${workload}, c${concurrency}: ${Math.round(total / CALLS)} B per call in the consumer\n`,
  );
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) {
    process.stdout.write(`${String(Math.round(bytes / CALLS)).padStart(6)} B  ${site}\n`);
  }
});
