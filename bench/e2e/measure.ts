// What one process pays over a measured window: CPU (process.cpuUsage), bytes allocated on the JS
// heap and time spent in GC (v8.GCProfiler: heap used before and after every collection).
import { performance } from "node:perf_hooks";
import { GCProfiler, getHeapStatistics } from "node:v8";

export interface ProcessCost {
  readonly wallMs: number;
  /** User + system CPU time. */
  readonly cpuMs: number;
  /** Bytes allocated on the JS heap during the window (heap growth plus what GC reclaimed). */
  readonly allocatedBytes: number;
  readonly gcMs: number;
  readonly gcCount: number;
}

export interface CostMeter {
  stop(): ProcessCost;
}

export function startCostMeter(): CostMeter {
  const profiler = new GCProfiler();
  const startedAt = performance.now();
  const startedCpu = process.cpuUsage();
  const startedUsed = getHeapStatistics().used_heap_size;
  profiler.start();
  return {
    stop() {
      const endUsed = getHeapStatistics().used_heap_size;
      const cpu = process.cpuUsage(startedCpu);
      const wallMs = performance.now() - startedAt;
      const gcs = profiler.stop()?.statistics ?? [];
      let allocated = 0;
      let used = startedUsed;
      let gcMicros = 0;
      for (const gc of gcs) {
        allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - used);
        used = gc.afterGC.heapStatistics.usedHeapSize;
        gcMicros += gc.cost;
      }
      allocated += Math.max(0, endUsed - used);
      return {
        wallMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        allocatedBytes: allocated,
        gcMs: gcMicros / 1000,
        gcCount: gcs.length,
      };
    },
  };
}
