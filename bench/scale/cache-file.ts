// Registry cache file at scale: N services exported one after another to a real ZooKeeper, as a
// provider's export does at the registry (register its URL, then subscribe to its override rules),
// with the cache file on and off, alternating. Prints the wall time of each and their ratio.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startZooKeeper } from "../../scripts/zookeeper.mjs";
import { silentLogger, Url } from "../../src/core/index.js";
import { createZookeeperRegistry } from "../../src/registry/zookeeper/zookeeper-registry.js";
import { scaleProviderUrl } from "./providers.js";

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
  const used = process.cpuUsage(cpu);
  const writes = registry.cacheFile?.writes ?? 0;
  await registry.destroy();
  return { wallMs, cpuMs: (used.user + used.system) / 1000, writes };
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await zk.stop();
  }
}
