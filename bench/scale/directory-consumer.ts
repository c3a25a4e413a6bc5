// One consumer process of the directory scale bench (run by directory.ts): writes N providers of
// one service into ZooKeeper, subscribes a RegistryDirectory to them through the ZooKeeper
// registry and the dubbo protocol, then adds and removes one provider, `changes` times. Prints one
// JSON line of figures. Invokers: `dubbo` (lazy=true: no socket until a provider is picked),
// `eager` (lazy=false, Java's default: every reference connects to the real server at `port`
// before it is listed) or `bare` (the registry and directory alone).
//   node --expose-gc --import tsx bench/scale/directory-consumer.ts <zk> <N> <changes> <dubbo|eager|bare> <port> [dir]
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type Protocol, silentLogger, Url } from "../../src/core/index.js";
import { createDubboProtocol } from "../../src/protocol/dubbo/index.js";
import { RegistryDirectory } from "../../src/registry/directory/index.js";
import { ChildUrls } from "../../src/registry/zookeeper/child-urls.js";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";
import { createZookeeperRegistry } from "../../src/registry/zookeeper/zookeeper-registry.js";
import { bareProtocol } from "./bare-invoker.js";
import { PROVIDERS_PATH, providerNode, scaleConsumerUrl, writeProviders } from "./providers.js";

const [connectString, countText, changesText, invokers, portText, profileDir] = process.argv.slice(2);
if (connectString === undefined || (invokers !== "dubbo" && invokers !== "eager" && invokers !== "bare"))
  throw new Error(
    "usage: directory-consumer.ts <zk connect string> <N> <changes> <dubbo|eager|bare> <provider port> [profile dir]",
  );
/** Eager references connect: their providers are 127.x.y.z at the real server's port. */
const providerPort = invokers === "eager" ? Number(portText) : undefined;
const count = Number(countText ?? 10_000);
const changes = Math.max(1, Number(changesText ?? 5));
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("directory-consumer.ts needs node --expose-gc");

interface Window {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly stallMs: number;
}

const cpuMs = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const profiler = profileDir === undefined ? undefined : new Session();
profiler?.connect();
await profiler?.post("Profiler.enable");

/**
 * CPU and wall time of `work`, and the longest event-loop stall while it ran; with a profile
 * directory, the window's CPU profile goes to `<dir>/<name>.cpuprofile`.
 */
async function measure(name: string, work: () => Promise<void>): Promise<Window> {
  await profiler?.post("Profiler.start");
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  const spent = cpuMs(cpu);
  // The delay monitor records a stall only when its timer next fires: let it, or a block that
  // lasts until `work` resolves (a synchronous parse of every child) goes unseen.
  await new Promise((resolve) => setTimeout(resolve, 2));
  delay.disable();
  if (profiler !== undefined && profileDir !== undefined) {
    const { profile } = await profiler.post("Profiler.stop");
    writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
  }
  return { cpuMs: spent, wallMs, stallMs: delay.max / 1e6 };
}

/** The median of each figure over the runs. */
function median(runs: readonly Window[]): Window {
  const mid = (pick: (w: Window) => number): number => {
    const sorted = runs.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  return { cpuMs: mid((w) => w.cpuMs), wallMs: mid((w) => w.wallMs), stallMs: mid((w) => w.stallMs) };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 60_000 && !condition(); i++) await new Promise((r) => setTimeout(r, 1));
  if (!condition()) throw new Error("directory bench: the directory never reached the expected size");
}

const writer = new ZkClient({ connectString, sessionTimeoutMs: 30_000, operationTimeoutMs: 30_000 });
await writer.connect(10_000);
await writeProviders(writer, 0, count, providerPort);
// What reading the children costs by itself (the ZooKeeper round trip and its decoding): the
// median of a few reads, after one to warm up.
await writer.readChildren(PROVIDERS_PATH);
const rawReads: Window[] = [];
for (let read = 0; read < 5; read++) {
  rawReads.push(
    await measure("raw-read", async () => {
      await writer.readChildren(PROVIDERS_PATH);
    }),
  );
}
const rawRead = median(rawReads);

const registryUrl = Url.parse(`zookeeper://${connectString}?application=scale-consumer&file.cache=false`);
const registry = await createZookeeperRegistry(registryUrl, { logger: silentLogger });
// `bare`: invokers that hold only their URL, so the figures are the registry and directory alone.
const protocol: Protocol = invokers !== "bare" ? createDubboProtocol({ logger: silentLogger }) : bareProtocol;
const consumerUrl = scaleConsumerUrl({
  lazy: String(invokers === "dubbo"),
  pid: String(process.pid),
  timestamp: String(Date.now()),
});
const directory = new RegistryDirectory({ consumerUrl, registry, protocol, logger: silentLogger });
const heapBefore = heapAfterGc();
const load = await measure("load", () => directory.subscribe());
const heapPerProvider = (heapAfterGc() - heapBefore) / count;
const loaded = directory.all().length;
const kept = directory.all()[0];

/**
 * Our own part of a change: the CPU from the subscription's first look at the new read (after
 * the ZooKeeper client decoded the reply and the watch compared it with the last) to the
 * directory settled: the registry's and the directory's code, without the client's decoding.
 */
let readCpu: NodeJS.CpuUsage | undefined;
const read = ChildUrls.prototype.read;
ChildUrls.prototype.read = function (this: ChildUrls, ...args: Parameters<typeof read>) {
  readCpu ??= process.cpuUsage();
  return read.apply(this, args);
};
async function ours(change: () => Promise<void>): Promise<number> {
  readCpu = undefined;
  await change();
  if (readCpu === undefined) throw new Error("directory bench: the change was not read");
  return cpuMs(readCpu);
}

const adds: Window[] = [];
const removes: Window[] = [];
const oursAdd: number[] = [];
const oursRemove: number[] = [];
for (let change = 0; change < changes; change++) {
  adds.push(
    await measure(`add-${change}`, async () => {
      await writer.create(providerNode(count, providerPort), true);
      oursAdd.push(
        await ours(async () => {
          await until(() => directory.all().length === count + 1);
          await directory.settled();
        }),
      );
    }),
  );
  removes.push(
    await measure(`remove-${change}`, async () => {
      await writer.remove(providerNode(count, providerPort));
      oursRemove.push(
        await ours(async () => {
          await until(() => directory.all().length === count);
          await directory.settled();
        }),
      );
    }),
  );
}
const middle = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

console.log(
  JSON.stringify({
    count,
    loaded,
    rawRead,
    load,
    heapPerProvider,
    add: median(adds),
    remove: median(removes),
    oursAddCpuMs: middle(oursAdd),
    oursRemoveCpuMs: middle(oursRemove),
    keptIdentity: directory.all()[0] === kept,
  }),
);
await directory.destroy();
await protocol.destroy();
await registry.destroy();
writer.close();
profiler?.disconnect();
