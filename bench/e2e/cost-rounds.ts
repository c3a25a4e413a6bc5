// A warm-up, then rounds each metered on its own: this process's CPU and heap allocated per call,
// as `µs KB` per round, for the one-process benches that compare runs of a contender before and
// after a change. A round is a closed loop in this process or one a child runs while this process
// serves it.
import type { BenchChild } from "./child.js";
import { runClosedLoop } from "./closed-loop.js";
import { startCostMeter } from "./measure.js";
import type { WorkloadName } from "./workloads.js";

/** Makes calls for `durationMs` and resolves to how many it made. */
export type Round = (durationMs: number) => Promise<number>;

export interface RoundCost {
  readonly cpuMicrosPerCall: number;
  readonly bytesPerCall: number;
}

/** A closed loop of `concurrency` workers in this process. */
export function closedLoopRound(call: (n: number) => Promise<unknown>, concurrency: number): Round {
  return async (durationMs) => (await runClosedLoop(call, concurrency, durationMs)).calls;
}

/** A closed loop that a client child (bench/e2e-client.ts) runs, for a server in this process. */
export function childClientRound(client: BenchChild, workload: WorkloadName, concurrency: number): Round {
  return async (durationMs) => {
    const answer = await client.ask({ type: "run", workload, concurrency, durationMs }, 60_000);
    if (answer.type === "result") return answer.stats.calls;
    throw new Error(`the client child answered ${JSON.stringify(answer)}`);
  };
}

export async function meterRound(round: Round, durationMs: number): Promise<RoundCost> {
  const meter = startCostMeter();
  const calls = await round(durationMs);
  const cost = meter.stop();
  return { cpuMicrosPerCall: (cost.cpuMs * 1000) / calls, bytesPerCall: cost.allocatedBytes / calls };
}

export function describeRoundCost(cost: RoundCost): string {
  return `${cost.cpuMicrosPerCall.toFixed(0)} µs ${(cost.bytesPerCall / 1024).toFixed(2)} KB`;
}

export interface RoundsOptions {
  readonly rounds?: number;
  /** Runs between the warm-up and the measured rounds (e.g. starts a profiler). */
  readonly afterWarmUp?: (() => Promise<void>) | undefined;
}

export async function costPerCallRounds(
  round: Round,
  roundMs: number,
  options: RoundsOptions = {},
): Promise<string> {
  const { rounds = 3, afterWarmUp } = options;
  await round(roundMs);
  await afterWarmUp?.();
  const figures: string[] = [];
  for (let i = 0; i < rounds; i++) figures.push(describeRoundCost(await meterRound(round, roundMs)));
  return figures.join(" | ");
}
