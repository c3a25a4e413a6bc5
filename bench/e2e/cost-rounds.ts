// A warm-up, then rounds of a closed loop each metered on its own: this process's CPU and heap
// allocated per call, as `µs KB` per round, for the one-process benches that compare runs of a
// contender before and after a change.
import { runClosedLoop } from "./closed-loop.js";
import { startCostMeter } from "./measure.js";

export async function costPerCallRounds(
  call: (n: number) => Promise<unknown>,
  concurrency: number,
  roundMs: number,
  rounds = 3,
): Promise<string> {
  await runClosedLoop(call, concurrency, roundMs);
  const figures: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const meter = startCostMeter();
    const stats = await runClosedLoop(call, concurrency, roundMs);
    const cost = meter.stop();
    figures.push(
      `${((cost.cpuMs * 1000) / stats.calls).toFixed(0)} µs ${(cost.allocatedBytes / stats.calls / 1024).toFixed(2)} KB`,
    );
  }
  return figures.join(" | ");
}
