/**
 * End-to-end echo benchmark: what an application pays. dubbo-ts through the compiled package's
 * public API (createDubbo, export, refer: cluster, directory, routers, load balance, mock and the
 * default filters in the path) against a raw node:net length-prefixed JSON echo (the ceiling).
 * Each contender's server and client run in their own processes over one loopback connection;
 * each cell is a closed loop of N callers, every request different (argument bytes and a `trace`
 * attachment per call), run at least twice with the contenders alternating.
 * Run: `npm run build && npx tsx bench/e2e.ts` (flags: bench-options.ts; `--profile` writes CPU
 * profiles of every process to .tmp/e2e-profile/<contender>/).
 */
import { pathToFileURL } from "node:url";
import { type BenchOptions, benchOptionsFromArgv } from "./bench-options.js";
import { runComparison } from "./e2e/comparison.js";
import { parseContenderName } from "./e2e/contenders.js";
import { CONTENDERS } from "./e2e/workloads.js";

export async function runE2eBench(options: BenchOptions, write = (t: string) => process.stdout.write(t)) {
  await runComparison({
    ...options,
    title: "End-to-end echo, public API of the compiled package, server and client in separate processes",
    contenders: options.contenders?.map(parseContenderName) ?? CONTENDERS,
    clientScript: "e2e-client.ts",
    ratios: [
      { against: "net", concurrency: 1, target: 0.65 },
      { against: "net", concurrency: 64, target: 0.8 },
    ],
    write,
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runE2eBench(benchOptionsFromArgv(process.argv.slice(2), "e2e"));
}
