// A closed loop: `concurrency` workers each issue the next call as soon as the previous one
// answers, for a fixed time. Every call gets the next number of a process-wide sequence, so no
// two requests of a process are alike, across cells and warm-ups too.
import { performance } from "node:perf_hooks";

export interface CellStats {
  readonly calls: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  /** Latencies in microseconds. */
  readonly p50: number;
  readonly p99: number;
}

let sequence = 0;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index]! * 1000;
}

export async function runClosedLoop(
  call: (n: number) => Promise<unknown>,
  concurrency: number,
  durationMs: number,
): Promise<CellStats> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      const sent = performance.now();
      await call(sequence++);
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    calls: latencies.length,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}
