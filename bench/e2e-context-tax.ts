/**
 * What `AsyncLocalStorage` costs a dubbo call at concurrency 1: the e2e bench's dubbo-ts pair
 * (createDubbo, refer by url, the `trace` attachment in runWithRpcContext) in alternating phases
 * with the storage's async hooks on (as shipped) and off (the storage replaced by a synchronous
 * slot, which keeps the context for the synchronous part of each call only: enough for this
 * bench's consumer and echo provider, not for code that reads the context after an `await`).
 * Both phases run in this one process, so the load of a shared machine falls on both alike. It also
 * counts the async resources a call creates and what the hooks add to each kind in short bursts
 * (a promise with one reaction and its `await`, a `nextTick`): counts times unit costs is the
 * figure that holds still when whole-call CPU moves by 2× with the machine's load.
 *
 * `--side consumer` (default): the provider runs in its own process, this process is the consumer.
 * `--side both`: provider and consumer in this process, so the difference is both sides' tax.
 *
 * npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/e2e-context-tax.ts \
 *   [--side consumer|both] [--workloads text|user] [--calls 4000] [--phases 8]
 */
import { AsyncLocalStorage, createHook } from "node:async_hooks";
import { startBenchChild } from "./e2e/child.js";
import { dubboContender } from "./e2e/dubbo-contender.js";
import { type EchoClient, requireCompiledPackage, textFor, traceFor, userFor } from "./e2e/workloads.js";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = argv.indexOf(name);
  return i < 0 ? fallback : (argv[i + 1] ?? fallback);
};
const side = flag("--side", "consumer");
if (side !== "consumer" && side !== "both") throw new Error(`--side must be consumer or both (got ${side})`);
const workload = flag("--workloads", "text");
const CALLS = Number(flag("--calls", "4000"));
const PHASES = Number(flag("--phases", "8"));

// The switch: every storage that ran a scope while hooks were on is disabled for an "off" phase
// (its hook goes when the last storage does) and re-enabled by its next real `run`.
const realRun = AsyncLocalStorage.prototype.run;
const realGetStore = AsyncLocalStorage.prototype.getStore;
const storages = new Set<AsyncLocalStorage<unknown>>();
let hooksOff = false;
let slot: unknown;
AsyncLocalStorage.prototype.run = function <R>(
  this: AsyncLocalStorage<unknown>,
  store: unknown,
  fn: (...args: unknown[]) => R,
  ...args: unknown[]
): R {
  if (!hooksOff) {
    storages.add(this);
    return realRun.call(this, store, fn, ...args) as R;
  }
  const previous = slot;
  slot = store;
  try {
    return fn(...args);
  } finally {
    slot = previous;
  }
};
AsyncLocalStorage.prototype.getStore = function (this: AsyncLocalStorage<unknown>) {
  return hooksOff ? slot : realGetStore.call(this);
};
function setHooksOff(off: boolean): void {
  hooksOff = off;
  if (off) for (const storage of storages) storage.disable();
}

/** µs of this process's CPU (all threads) and of wall time per call, over `CALLS` calls. */
async function phase(call: (n: number) => Promise<unknown>, start: number): Promise<[number, number]> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < CALLS; i++) await call(start + i);
  const used = process.cpuUsage(cpu);
  return [(used.user + used.system) / CALLS, ((performance.now() - wall) * 1000) / CALLS];
}

/** Async resources created per call by type, with the storage's hooks on. */
async function resourcesPerCall(call: (n: number) => Promise<unknown>): Promise<string> {
  const counts = new Map<string, number>();
  const hook = createHook({ init: (_id, type) => counts.set(type, (counts.get(type) ?? 0) + 1) });
  hook.enable();
  for (let i = 0; i < 1000; i++) await call(i);
  hook.disable();
  return [...counts].map(([type, n]) => `${type} ${(n / 1000).toFixed(2)}`).join(", ");
}

/**
 * ns of CPU per async resource with the hooks on minus off, in short alternating bursts (less
 * exposed to a shared machine's load than whole calls): a promise with one reaction, a nextTick.
 */
async function unitTax(storage: AsyncLocalStorage<unknown>): Promise<string> {
  const burst = async (kind: "promise" | "tick"): Promise<number> => {
    const n = 20_000;
    const cpu = process.cpuUsage();
    if (kind === "promise") {
      for (let i = 0; i < n; i++) await new Promise<number>((resolve) => resolve(i)).then((v) => v + 1);
    } else {
      for (let i = 0; i < n; i += 100) {
        await new Promise<void>((resolve) => {
          let left = 100;
          const tick = (): void => (--left === 0 ? resolve() : process.nextTick(tick));
          process.nextTick(tick);
        });
      }
    }
    const used = process.cpuUsage(cpu);
    return ((used.user + used.system) * 1000) / n;
  };
  const rows: string[] = [];
  for (const kind of ["promise", "tick"] as const) {
    const taxes: number[] = [];
    for (let p = 0; p < 12; p++) {
      setHooksOff(true);
      const off = await burst(kind);
      setHooksOff(false);
      const on = await storage.run({}, () => burst(kind));
      taxes.push(on - off);
    }
    rows.push(`${kind} ${median(taxes).toFixed(0)} ns`);
  }
  return rows.join(", ");
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

requireCompiledPackage();
const contender = dubboContender("dubbo");
const child =
  side === "consumer" ? startBenchChild("dubbo-ts server", "e2e-server.ts", ["dubbo-ts"]) : undefined;
let client: EchoClient | undefined;
let server: { close(): Promise<void> } | undefined;
try {
  let port: number;
  if (child !== undefined) {
    const ready = await child.next(60_000);
    if (ready.type !== "ready") throw new Error(`context-tax: the server answered ${ready.type}`);
    port = ready.port;
  } else {
    const started = await contender.startServer();
    server = started;
    port = started.port;
  }
  const echo = await contender.connect(port);
  client = echo;
  const call =
    workload === "user"
      ? (n: number) => echo.echoUser(userFor(n), traceFor(n))
      : (n: number) => echo.echoText(textFor(n), traceFor(n));
  let sequence = 0;
  for (const off of [false, true, false, true]) {
    setHooksOff(off);
    await phase(call, sequence);
    sequence += CALLS;
  }
  const on: Array<[number, number]> = [];
  const off: Array<[number, number]> = [];
  for (let p = 0; p < PHASES; p++) {
    for (const hooksAreOff of p % 2 === 0 ? [false, true] : [true, false]) {
      setHooksOff(hooksAreOff);
      (hooksAreOff ? off : on).push(await phase(call, sequence));
      sequence += CALLS;
    }
  }
  setHooksOff(false);
  const line = (label: string, rows: Array<[number, number]>): string =>
    `${label}: CPU ${median(rows.map((r) => r[0])).toFixed(1)} µs/call, wall ${median(rows.map((r) => r[1])).toFixed(1)} µs/call`;
  const cpuTax = on.map((r, i) => r[0] - off[i]![0]);
  process.stdout.write(
    `${workload}, c1, ${side === "both" ? "consumer and provider in this process" : "consumer process"}, ${PHASES} × ${CALLS} calls each way\n` +
      `${line("hooks on ", on)}\n${line("hooks off", off)}\n` +
      `CPU tax per call (median of the phase pairs): ${median(cpuTax).toFixed(1)} µs (pairs ${cpuTax.map((t) => t.toFixed(1)).join(", ")})\n` +
      `async resources per call: ${await resourcesPerCall(call)}\n` +
      `hooks' cost per resource (median of 12 burst pairs): ${await unitTax(new AsyncLocalStorage())}\n`,
  );
} finally {
  await client?.close();
  await server?.close();
  await child?.stop();
}
