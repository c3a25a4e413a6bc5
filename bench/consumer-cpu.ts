/**
 * The e2e consumer's CPU per call (user + system, `process.cpuUsage`), in rounds: the figure an
 * A/B of a consumer-side change compares, run alternately against two builds of dist/ on a
 * shared machine. Same consumer and server as bench/consumer-allocations.ts, no profiler attached
 * (add `--cpu-prof` to node's options for a profile of the same loop). Run against the compiled
 * package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/consumer-cpu.ts [text|user] [concurrency] [rounds] [calls]`.
 */
import { withBenchConsumer } from "./e2e/consumer-under-test.js";

const WARMUP_CALLS = 20_000;

const [workload = "user", concurrencyArg = "64", roundsArg = "3", callsArg = "40000"] = process.argv.slice(2);
const calls = Number(callsArg);

await withBenchConsumer("consumer-cpu", workload, Number(concurrencyArg), async (loop) => {
  await loop(WARMUP_CALLS);
  const perCall: string[] = [];
  for (let round = 0; round < Number(roundsArg); round++) {
    const before = process.cpuUsage();
    await loop(calls);
    const used = process.cpuUsage(before);
    perCall.push(((used.user + used.system) / calls).toFixed(2));
  }
  process.stdout.write(`${workload}, c${concurrencyArg}: consumer CPU per call ${perCall.join(" / ")} µs\n`);
});
