/**
 * Provider-side benchmark: a load generator sends pre-built, all-different request frames (as our
 * consumer writes them: argument bytes and a `trace` attachment differ per frame) over one raw
 * loopback connection to our provider (public API, compiled package), to the dubbo-js v4 provider
 * (npm apache-dubbo-service) and to a raw ping-pong that echoes each frame undecoded (the ceiling).
 * Closed loop, contenders alternating, at least two rounds.
 * Run: `npm run build && npx tsx bench/provider.ts` (flags: bench-options.ts).
 */
import { pathToFileURL } from "node:url";
import { type BenchOptions, benchOptionsFromArgv } from "./bench-options.js";
import { runComparison } from "./e2e/comparison.js";
import { parseServerName } from "./e2e/servers.js";

export async function runProviderBench(
  options: BenchOptions,
  write = (t: string) => process.stdout.write(t),
) {
  await runComparison({
    ...options,
    title: "Provider side, pre-built frames from a raw load generator",
    contenders: options.contenders?.map(parseServerName) ?? ["dubbo-ts", "dubbo-js", "ping-pong"],
    clientScript: "provider-client.ts",
    ratios: [
      { against: "dubbo-js", concurrency: 64, target: 3 },
      { against: "dubbo-js", concurrency: 1, target: 3 },
      { against: "ping-pong", concurrency: 1, target: 0.65 },
      { against: "ping-pong", concurrency: 64, target: 0.65 },
    ],
    write,
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runProviderBench(benchOptionsFromArgv(process.argv.slice(2), "provider"));
}
