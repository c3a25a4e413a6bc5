// What the bench drivers share: a server and a client process per contender, one measured cell
// (warm-up, then the server's meter around the client's measured run), and the report's figures.
import { join } from "node:path";
import { type BenchChild, startBenchChild } from "./child.js";
import type { CellStats } from "./closed-loop.js";
import type { ProcessCost } from "./measure.js";
import type { ChildMessage, RunCell } from "./messages.js";
import type { ServerName, WorkloadName } from "./workloads.js";

const READY_TIMEOUT_MS = 60_000;

export interface Running {
  readonly server: BenchChild;
  readonly client: BenchChild;
}

export interface RoundResult {
  readonly stats: CellStats;
  readonly client: ProcessCost;
  readonly server: ProcessCost;
}

function portOf(message: ChildMessage): number {
  if (message.type === "error") throw new Error(`bench child failed:\n${message.message}`);
  if (message.type !== "ready") throw new Error(`bench: expected ready, got ${message.type}`);
  return message.port;
}

function answer<T extends ChildMessage["type"]>(
  message: ChildMessage,
  type: T,
): Extract<ChildMessage, { type: T }> {
  if (message.type === "error") throw new Error(`bench child failed:\n${message.message}`);
  if (message.type !== type) throw new Error(`bench: expected ${type}, got ${message.type}`);
  return message as Extract<ChildMessage, { type: T }>;
}

/** Starts `server` and then `clientScript <clientArgs…> <port>`, each in its own process. */
export async function startPair(
  server: ServerName,
  clientScript: string,
  clientArgs: readonly string[],
  cpuProfileDir: string | undefined,
): Promise<Running> {
  const profile =
    cpuProfileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${join(cpuProfileDir, server)}`];
  const serverChild = startBenchChild(`${server} server`, "e2e-server.ts", [server], profile);
  const port = portOf(await serverChild.next(READY_TIMEOUT_MS));
  const client = startBenchChild(`${server} client`, clientScript, [...clientArgs, String(port)], profile);
  try {
    portOf(await client.next(READY_TIMEOUT_MS));
  } catch (error) {
    await Promise.all([client.stop(), serverChild.stop()]);
    throw error;
  }
  return { server: serverChild, client };
}

export async function runCell(
  running: Running,
  workload: WorkloadName,
  concurrency: number,
  warmupMs: number,
  durationMs: number,
): Promise<RoundResult> {
  const cell = (ms: number): RunCell => ({ type: "run", workload, concurrency, durationMs: ms });
  const timeout = warmupMs + durationMs + 30_000;
  answer(await running.client.ask(cell(warmupMs), timeout), "result");
  answer(await running.server.ask({ type: "meter-start" }, timeout), "metering");
  const result = answer(await running.client.ask(cell(durationMs), timeout), "result");
  const server = answer(await running.server.ask({ type: "meter-stop" }, timeout), "cost");
  return { stats: result.stats, client: result.cost, server: server.cost };
}

/** The median round by req/s (the upper middle one for an even count). */
export function medianOf(list: readonly RoundResult[]): RoundResult {
  const sorted = [...list].sort((a, b) => a.stats.requestsPerSecond - b.stats.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** CPU µs per call, bytes allocated per call and GC share of wall time, for one process. */
export function describeCost(cost: ProcessCost, calls: number): string {
  const cpu = ((cost.cpuMs * 1000) / calls).toFixed(1);
  const alloc = fmtInt(cost.allocatedBytes / calls);
  const gc = ((cost.gcMs / cost.wallMs) * 100).toFixed(1);
  return `${cpu.padStart(6)} µs ${alloc.padStart(6)} B ${gc.padStart(5)} %`;
}

export const COST_HEADER = `${"cpu/call".padStart(9)} ${"alloc/call".padStart(8)} ${"gc".padStart(6)}`;

/** The paired per-round ratios: each round ran both contenders back to back. */
export function roundRatios(ours: readonly RoundResult[], peer: readonly RoundResult[]): number[] {
  return ours.map((r, i) => r.stats.requestsPerSecond / (peer[i]?.stats.requestsPerSecond ?? Number.NaN));
}
