// Memory of the soak's consumer process: RSS and heap, after a full GC when node runs with
// --expose-gc (npm run soak does), so the start and end figures compare live data, not garbage.

export interface MemorySample {
  readonly atSecond: number;
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly afterGc: boolean;
}

const MB = 1024 * 1024;

export function sampleMemory(startedAt: number): MemorySample {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const usage = process.memoryUsage();
  return {
    atSecond: Math.round((Date.now() - startedAt) / 1000),
    rssMb: round(usage.rss / MB),
    heapUsedMb: round(usage.heapUsed / MB),
    afterGc: gc !== undefined,
  };
}

/**
 * Flat: the heap at the end is within 25 % (or 8 MB, whichever is larger) of the heap at the
 * start. Live heap after a GC is what a leak grows; RSS is reported but not judged, as V8 keeps
 * freed pages for reuse.
 */
export function stayedFlat(start: MemorySample, end: MemorySample): boolean {
  return end.heapUsedMb - start.heapUsedMb <= Math.max(8, start.heapUsedMb * 0.25);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
