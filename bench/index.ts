// npm run bench: every benchmark, each comparing dubbo-ts with its peers in the same run.
// Benchmarks are not tests: they print figures and ratios, and assert nothing.
// `npm run bench -- e2e --rounds 4` runs one with flags (bench-options.ts).
import { benchOptionsFromArgv } from "./bench-options.js";
import { runE2eBench } from "./e2e.js";
import { runHessianBench } from "./hessian.js";
import { runMetricsBench } from "./metrics.js";
import { runProviderBench } from "./provider.js";
import { runScaleBench } from "./scale/index.js";
import { runTracingBench } from "./tracing.js";
import { runTripleBench } from "./triple.js";

const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith("--"));
const only = firstFlag < 0 ? args : args.slice(0, firstFlag);
const flags = firstFlag < 0 ? [] : args.slice(firstFlag);
const wanted = (name: string) => only.length === 0 || only.includes(name);

if (wanted("hessian")) await runHessianBench();
if (wanted("e2e")) await runE2eBench(benchOptionsFromArgv(flags, "e2e"));
if (wanted("provider")) await runProviderBench(benchOptionsFromArgv(flags, "provider"));
if (wanted("triple")) await runTripleBench(benchOptionsFromArgv(flags, "triple"));
if (wanted("metrics")) await runMetricsBench();
if (wanted("tracing")) await runTracingBench();
// Not in the default run: it needs ZooKeeper and minutes.
if (only.includes("scale")) await runScaleBench(flags);
