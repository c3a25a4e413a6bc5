// npm run soak: a bounded soak against real processes and a real ZooKeeper. One consumer (this
// process) makes mixed calls at a steady rate while providers are killed with SIGKILL and restarted
// on their port, and ZooKeeper is halted and started again; at the end it reports calls, failures
// by code, lost calls and memory. Not part of `npm test`: it asserts nothing, it reports.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startZooKeeper } from "../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, silentLogger } from "../../src/index.js";
import { createCallTracker } from "./call-tracker.js";
import { type MemorySample, sampleMemory, stayedFlat } from "./memory.js";
import { parseSoakOptions } from "./options.js";
import { type SoakProvider, soakProvider } from "./provider-process.js";
import { SoakService } from "./soak-service.js";

const TIMEOUT_MS = 2000;
const RETRIES = 2;
/** A call is lost when it has not settled after every attempt's timeout plus this margin. */
const LOST_MARGIN_MS = 5000;
const WARM_UP_MS = 5000;
const ECHO_SIZES = [16, 256, 4096, 65_536] as const;

const options = parseSoakOptions(process.argv.slice(2));
const log = (line: string) => {
  if (!options.json) process.stdout.write(`${line}\n`);
};
let startedAt = Date.now();
const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)}s`;
const cacheDir = mkdtempSync(join(tmpdir(), "dubbo-ts-soak-"));
const zookeeper = await startZooKeeper();
const registryAddress = `zookeeper://${zookeeper.connectString}`;
const providers: SoakProvider[] = [];
const timers: NodeJS.Timeout[] = [];
let stopping = false;
let zookeeperBounces = 0;
let consumer: DubboApplication | undefined;

async function stopEverything(): Promise<void> {
  for (const timer of timers) clearInterval(timer);
  await Promise.all(providers.map((p) => p.kill()));
  await consumer?.stop().catch(() => {});
  await zookeeper.stop();
  rmSync(cacheDir, { recursive: true, force: true });
}

process.once("SIGINT", () => {
  log("SIGINT: stopping every process");
  stopping = true;
  void stopEverything().then(() => process.exit(130));
});

for (let i = 0; i < options.providers; i++) {
  providers.push(soakProvider(`p${i + 1}`, await freePort(), registryAddress));
}
await Promise.all(providers.map((p) => p.start()));
log(`ZooKeeper on ${zookeeper.connectString}; providers on ${providers.map((p) => p.port).join(", ")}`);

consumer = await createDubbo({
  application: { name: "soak-consumer" },
  env: false,
  // The soak's own SIGINT handler stops the providers and ZooKeeper too, then this application.
  shutdownHook: false,
  logger: silentLogger,
  registry: {
    address: registryAddress,
    file: join(cacheDir, "consumer.cache"),
    parameters: { "retry.period": "500" },
  },
});
const soak = await consumer.refer(SoakService, { timeoutMs: TIMEOUT_MS, retries: RETRIES, check: false });
const setUpSeconds = Math.round((Date.now() - startedAt) / 1000);
startedAt = Date.now();
const tracker = createCallTracker(TIMEOUT_MS * (RETRIES + 1) + LOST_MARGIN_MS);

let callNumber = 0;
function startOneCall(): void {
  const n = callNumber++;
  const pick = n % 10;
  if (pick < 6) {
    const text = "x".repeat(ECHO_SIZES[n % ECHO_SIZES.length] ?? 16);
    tracker.track("echo", soak.echo(text), (a) => typeof a === "string" && a.endsWith(`:${text}`));
  } else if (pick < 9) {
    const text = "y".repeat(n % 1000);
    tracker.track("measure", soak.measure(text), (a) => a === text.length);
  } else {
    const ms = 100 + (n % 5) * 100;
    tracker.track("slow", soak.slow(ms), (a) => typeof a === "string" && a.endsWith(`slept ${ms}`));
  }
}

let killed = 0;
async function killAndRestartOne(): Promise<void> {
  const provider = providers[killed++ % providers.length];
  if (provider === undefined || stopping) return;
  await provider.kill();
  log(`${elapsed()} killed ${provider.id} (SIGKILL), restarting on port ${provider.port}`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  if (!stopping)
    await provider.start().catch((e: unknown) => log(`${elapsed()} ${provider.id} did not restart: ${e}`));
}

async function bounceZooKeeper(): Promise<void> {
  if (stopping) return;
  zookeeperBounces++;
  log(`${elapsed()} ZooKeeper halted for ${options.zookeeperDownMs} ms`);
  await zookeeper.halt();
  await new Promise((resolve) => setTimeout(resolve, options.zookeeperDownMs));
  if (!stopping) await zookeeper.start();
}

/** Runs `step` every `everyMs`, never two at once. */
function every(everyMs: number, step: () => Promise<void>): void {
  let busy = false;
  timers.push(
    setInterval(() => {
      if (busy) return;
      busy = true;
      void step().finally(() => {
        busy = false;
      });
    }, everyMs),
  );
}

timers.push(setInterval(startOneCall, 1000 / options.callsPerSecond));
timers.push(setInterval(() => tracker.sweep(), 1000));
await new Promise((resolve) => setTimeout(resolve, Math.min(WARM_UP_MS, options.durationMs / 4)));
const memoryStart = sampleMemory(startedAt);
const memorySamples: MemorySample[] = [memoryStart];
every(options.killEveryMs, killAndRestartOne);
every(options.zookeeperBounceEveryMs, bounceZooKeeper);
timers.push(setInterval(() => memorySamples.push(sampleMemory(startedAt)), 30_000));
timers.push(
  setInterval(() => {
    const f = tracker.figures();
    log(`${elapsed()} calls ${f.started}, failed ${f.failed}, lost ${f.lost}, pending ${f.pending}`);
  }, 30_000),
);

await new Promise((resolve) => setTimeout(resolve, options.durationMs - (Date.now() - startedAt)));
stopping = true;
for (const timer of timers) clearInterval(timer);
await tracker.drain(TIMEOUT_MS * (RETRIES + 1) + LOST_MARGIN_MS);
const memoryEnd = sampleMemory(startedAt);
memorySamples.push(memoryEnd);
const report = {
  setUpSeconds,
  seconds: Math.round((Date.now() - startedAt) / 1000),
  providers: options.providers,
  callsPerSecond: options.callsPerSecond,
  providerKills: providers.reduce((sum, p) => sum + p.restarts, 0),
  zookeeperBounces,
  calls: tracker.figures(),
  memory: {
    start: memoryStart,
    end: memoryEnd,
    stayedFlat: stayedFlat(memoryStart, memoryEnd),
    samples: memorySamples,
  },
};
await stopEverything();
if (options.json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const c = report.calls;
  log(
    `\nsoak: ${report.seconds} s of calls (after ${report.setUpSeconds} s of set-up), ${report.providers} providers, ${report.providerKills} provider kills, ${report.zookeeperBounces} ZooKeeper bounces`,
  );
  log(
    `calls ${c.started}: answered ${c.answered}, failed ${c.failed}, lost ${c.lost} (settled after lost: ${c.settledAfterLost}), wrong answers ${c.wrongAnswers}`,
  );
  for (const [code, count] of Object.entries(c.failuresByCode)) log(`  ${code}: ${count}`);
  const m = report.memory;
  log(
    `memory start: rss ${m.start.rssMb} MB, heap ${m.start.heapUsedMb} MB; end: rss ${m.end.rssMb} MB, heap ${m.end.heapUsedMb} MB${m.end.afterGc ? " (after GC)" : " (no GC: run with --expose-gc)"}; ${m.stayedFlat ? "flat" : "GREW"}`,
  );
}
process.exit(0);
