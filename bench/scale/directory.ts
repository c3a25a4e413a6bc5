// Directory at scale: N providers of one service in a real ZooKeeper; what the consumer pays to
// load them and to apply a one-provider change on top of them, with the dubbo protocol's invokers
// lazy (no socket), eager (Java's default: one real connection each, to a provider process that
// listens on every loopback address) and with bare ones (the registry and directory alone). Each run is its own consumer
// process (a fresh heap); `--profile` writes a CPU profile of each measured window into
// .tmp/scale-profile/ (load.cpuprofile, add-0.cpuprofile, …).
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startZooKeeper } from "../../scripts/zookeeper.mjs";
import { runGcChild } from "./gc-child.js";

interface Window {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly stallMs: number;
}

interface DirectoryFigures {
  readonly count: number;
  readonly loaded: number;
  readonly rawRead: Window;
  readonly load: Window;
  readonly heapPerProvider: number;
  readonly add: Window;
  readonly remove: Window;
  /** CPU from the subscription's look at the new read to the directory settled (ours alone). */
  readonly oursAddCpuMs: number;
  readonly oursRemoveCpuMs: number;
  readonly keptIdentity: boolean;
}

export interface DirectoryBenchOptions {
  readonly count: number;
  readonly rounds: number;
  /** One-provider adds and removes per round; the median of each is reported. */
  readonly changes: number;
  readonly profileDir: string | undefined;
  /** The invoker kinds to run, in this order on odd rounds and reversed on even ones. */
  readonly invokers: readonly InvokerKind[];
}

export const INVOKER_KINDS = ["dubbo", "eager", "bare"] as const;
export type InvokerKind = (typeof INVOKER_KINDS)[number];

/** The real provider eager references connect to, in its own process; kill() stops it. */
async function startScaleProvider(): Promise<{ port: number; kill: () => void }> {
  const path = fileURLToPath(new URL("./scale-provider-child.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", path], { stdio: ["ignore", "pipe", "inherit"] });
  for await (const line of createInterface({ input: child.stdout })) {
    const { port } = JSON.parse(line) as { port: number };
    return { port, kill: () => child.kill("SIGTERM") };
  }
  throw new Error("scale-provider-child.ts exited before printing its port");
}

function runConsumer(
  connectString: string,
  invokers: InvokerKind,
  providerPort: number,
  options: DirectoryBenchOptions,
): Promise<DirectoryFigures> {
  const args = [
    connectString,
    String(options.count),
    String(options.changes),
    invokers,
    String(providerPort),
  ];
  if (options.profileDir !== undefined) {
    const dir = `${options.profileDir}/${invokers}`;
    mkdirSync(dir, { recursive: true });
    args.push(dir);
  }
  return runGcChild<DirectoryFigures>("directory-consumer.ts", args);
}

const fmt = (w: Window): string =>
  `${w.cpuMs.toFixed(1)} ms CPU, ${w.wallMs.toFixed(1)} ms wall, longest stall ${w.stallMs.toFixed(1)} ms`;

export async function runDirectoryScaleBench(options: DirectoryBenchOptions): Promise<void> {
  const zk = await startZooKeeper();
  const provider = options.invokers.includes("eager") ? await startScaleProvider() : undefined;
  try {
    console.log(`directory at scale: ${options.count} providers of one service in ZooKeeper`);
    // Contenders alternate per round; each consumer process writes its providers on its own
    // session, and they go with it, so every round starts from an empty providers path.
    for (let round = 1; round <= options.rounds; round++) {
      const order = round % 2 === 1 ? options.invokers : [...options.invokers].reverse();
      for (const invokers of order) {
        const f = await runConsumer(zk.connectString, invokers, provider?.port ?? 0, options);
        const net = (w: Window): string =>
          `; net of the raw read ${(w.cpuMs - f.rawRead.cpuMs).toFixed(1)} ms CPU`;
        console.log(`  round ${round}, ${invokers} invokers: loaded ${f.loaded}`);
        console.log(`    raw getChildren     ${fmt(f.rawRead)}`);
        console.log(`    load (subscribe)    ${fmt(f.load)}${net(f.load)}`);
        console.log(`    heap per provider   ${(f.heapPerProvider / 1024).toFixed(2)} KiB`);
        const own = (ms: number): string => `; registry and directory ${ms.toFixed(2)} ms CPU`;
        console.log(`    add one (median)    ${fmt(f.add)}${net(f.add)}${own(f.oursAddCpuMs)}`);
        console.log(`    remove one (median) ${fmt(f.remove)}${net(f.remove)}${own(f.oursRemoveCpuMs)}`);
        console.log(`    unchanged invoker kept its identity: ${f.keptIdentity}`);
      }
    }
  } finally {
    provider?.kill();
    await zk.stop();
  }
}
