// Registry cache file at scale: N services exported one after another to a real ZooKeeper, as a
// provider's export does at the registry (register its URL, then subscribe to its override rules),
// with the cache file on and off, alternating. Prints the wall time of each and their ratio. Then
// what the cache adds to one removal at 10 000 providers of one service: the notify path's `set`
// and the coalesced save that follows (CPU, and how long it blocks the event loop).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { startZooKeeper } from "../../scripts/zookeeper.mjs";
import { silentLogger, Url } from "../../src/core/index.js";
import { RegistryCacheFile } from "../../src/registry/registry-cache.js";
import { createZookeeperRegistry } from "../../src/registry/zookeeper/zookeeper-registry.js";
import { scaleProviderUrl } from "./providers.js";

const cpuMs = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

async function exportSequentially(
  connectString: string,
  services: number,
  cacheFile: string | undefined,
  run: string,
): Promise<{ wallMs: number; cpuMs: number; writes: number }> {
  const cacheParams = cacheFile === undefined ? "file.cache=false" : `file=${cacheFile}`;
  const registry = await createZookeeperRegistry(
    Url.parse(`zookeeper://${connectString}?application=scale-provider&${cacheParams}`),
    { logger: silentLogger },
  );
  const listener = (): void => {};
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < services; i++) {
    const url = scaleProviderUrl(i).with({ path: `org.apache.dubbo.bench.${run}.Service${i}` });
    const service = url.withParams({ interface: url.path });
    await registry.register(service);
    await registry.subscribe(
      service.with({ protocol: "provider" }).withParams({ category: "configurators", check: "false" }),
      listener,
    );
  }
  await registry.cacheFile?.flush();
  const wallMs = performance.now() - t0;
  const spent = cpuMs(cpu);
  const writes = registry.cacheFile?.writes ?? 0;
  await registry.destroy();
  return { wallMs, cpuMs: spent, writes };
}

const PROVIDERS = 10_000;
const REMOVALS = 3;

async function removalsAtScale(dir: string): Promise<void> {
  const file = join(dir, "scale.cache");
  const cache = new RegistryCacheFile({ file, sync: false, logger: silentLogger });
  const urls = Array.from({ length: PROVIDERS }, (_, i) => scaleProviderUrl(i));
  const key = urls[0]!.serviceKey;
  cache.set(key, urls);
  await cache.flush();
  console.log(
    `  one removal at ${PROVIDERS} providers (a ${(statSync(file).size / 1e6).toFixed(1)} MB file):`,
  );
  for (let removal = 0; removal < REMOVALS; removal++) {
    const remaining = urls.filter((_, i) => i !== removal);
    const setCpu = process.cpuUsage();
    cache.set(key, remaining);
    const setMs = cpuMs(setCpu);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const saveCpu = process.cpuUsage();
    await cache.flush();
    const saveMs = cpuMs(saveCpu);
    // The delay monitor sees a stall only when its timer next fires.
    await new Promise((resolve) => setTimeout(resolve, 2));
    delay.disable();
    console.log(
      `    set ${setMs.toFixed(2)} ms CPU on the notify path; the save ${saveMs.toFixed(0)} ms CPU, longest event-loop stall ${(delay.max / 1e6).toFixed(0)} ms`,
    );
  }
}

export async function runCacheFileScaleBench(options: { services: number; rounds: number }): Promise<void> {
  const zk = await startZooKeeper();
  const dir = mkdtempSync(join(tmpdir(), "dubbo-ts-cache-bench-"));
  try {
    console.log(`registry cache file: ${options.services} sequential exports to ZooKeeper`);
    for (let round = 1; round <= options.rounds; round++) {
      const order = round % 2 === 1 ? ["on", "off"] : ["off", "on"];
      const figures = new Map<string, { wallMs: number; cpuMs: number; writes: number }>();
      for (const mode of order) {
        const file = mode === "on" ? join(dir, `round${round}.cache`) : undefined;
        figures.set(
          mode,
          await exportSequentially(zk.connectString, options.services, file, `r${round}${mode}`),
        );
      }
      const on = figures.get("on")!;
      const off = figures.get("off")!;
      console.log(
        `  round ${round}: cache on ${on.wallMs.toFixed(0)} ms (${on.cpuMs.toFixed(0)} ms CPU, ${on.writes} writes), ` +
          `off ${off.wallMs.toFixed(0)} ms (${off.cpuMs.toFixed(0)} ms CPU): on/off ${(on.wallMs / off.wallMs).toFixed(2)}×`,
      );
    }
    await removalsAtScale(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await zk.stop();
  }
}
