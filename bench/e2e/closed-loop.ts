// A closed loop: `concurrency` workers each issue the next call as soon as the previous one
// answers, for a fixed time. A warm-up phase runs first and is not measured.
import { performance } from "node:perf_hooks";

export interface CellStats {
  readonly calls: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  /** Latencies in microseconds. */
  readonly p50: number;
  readonly p99: number;
}

async function loop(
  call: () => Promise<unknown>,
  concurrency: number,
  until: number,
  latencies: number[] | undefined,
): Promise<void> {
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      const started = performance.now();
      await call();
      latencies?.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index]! * 1000;
}

export async function runClosedLoop(
  call: () => Promise<unknown>,
  concurrency: number,
  warmupMs: number,
  durationMs: number,
): Promise<CellStats> {
  await loop(call, concurrency, performance.now() + warmupMs, undefined);
  const latencies: number[] = [];
  const started = performance.now();
  await loop(call, concurrency, started + durationMs, latencies);
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
