// npm run bench: every benchmark, each comparing dubbo-ts with its peers in the same run.
// Benchmarks are not tests: they print figures and ratios, and assert nothing.
import { runE2eBench } from "./e2e.js";
import { runHessianBench } from "./hessian.js";
import { runMetricsBench } from "./metrics.js";

const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const wanted = (name: string) => only.length === 0 || only.includes(name);

if (wanted("hessian")) await runHessianBench();
if (wanted("e2e")) await runE2eBench();
if (wanted("metrics")) await runMetricsBench();
