// Heap bytes allocated while some code runs, by allocating function, from V8's sampling heap
// profiler with collected objects counted too: the figure that holds still on a loaded machine.
import type { Session } from "node:inspector/promises";

interface SamplingNode {
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

/**
 * Bytes allocated during `run` by site (`name file`, the path from `src/`, `dist/` or `bench/`),
 * sampled every `samplingInterval` bytes.
 */
export async function sampleAllocations(
  session: Session,
  samplingInterval: number,
  run: () => Promise<void>,
): Promise<Map<string, number>> {
  await session.post("HeapProfiler.startSampling", {
    samplingInterval,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await run();
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as {
    profile: { head: SamplingNode };
  };
  const bySite = new Map<string, number>();
  const walk = (node: SamplingNode): void => {
    const site = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*\/(src|dist|bench)\//, "$1/")}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return bySite;
}

/** The `top` largest sites of `sites` as bytes per call, one a line. */
export function describeAllocationSites(sites: Map<string, number>, calls: number, top = 40): string {
  return [...sites]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([site, bytes]) => `${(bytes / calls).toFixed(0).padStart(7)} B  ${site}\n`)
    .join("");
}
