/**
 * End-to-end echo benchmark: dubbo-ts against a raw node:net length-prefixed echo (the ceiling)
 * and @grpc/grpc-js unary calls. Each contender's server and client run in their own processes
 * over one connection; each cell is a closed loop at a given concurrency for a fixed time, run
 * `rounds` times with the contenders alternating (the machine is shared and noisy); each cell reports
 * its median round. Prints req/s and p50/p99, then the ratios against the targets: the ratio of the
 * medians decides PASS/MISS, and the paired per-round ratios show how much the noise moved it.
 * Run: `npx tsx bench/e2e.ts` (add `--profile` to write CPU profiles of every process to
 * .tmp/e2e-profile/<contender>/, or `--profile-dir <dir>`; see optionsFromArgv for the other flags).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BenchChild, startBenchChild } from "./e2e/child.js";
import type { CellStats } from "./e2e/closed-loop.js";
import { parseContenderName } from "./e2e/contenders.js";
import type { ChildMessage } from "./e2e/messages.js";
import {
  CONTENDERS,
  type ContenderName,
  WORKLOAD_LABELS,
  WORKLOADS,
  type WorkloadName,
} from "./e2e/workloads.js";

export interface E2eBenchOptions {
  readonly contenders?: readonly ContenderName[];
  readonly workloads?: readonly WorkloadName[];
  readonly concurrencies?: readonly number[];
  /** At least 2 (default 3); contenders alternate order between rounds. */
  readonly rounds?: number;
  readonly warmupMs?: number;
  readonly durationMs?: number;
  /** When set, every server and client writes `--cpu-prof` profiles into `<dir>/<contender>/`. */
  readonly cpuProfileDir?: string;
  readonly write?: (text: string) => void;
}

export interface E2eCell {
  readonly workload: WorkloadName;
  readonly concurrency: number;
  readonly contender: ContenderName;
  /** The median round (by req/s; the upper middle one for an even count). */
  readonly median: CellStats;
  readonly rounds: readonly CellStats[];
}

export interface E2eTarget {
  readonly workload: WorkloadName;
  readonly concurrency: number;
  readonly against: ContenderName;
  /** Median req/s of dubbo-ts over the peer's. */
  readonly ratio: number;
  /** The same ratio round by round (each round runs both back to back). */
  readonly roundRatios: readonly number[];
  readonly target: number;
  readonly met: boolean;
}

export interface E2eBenchReport {
  readonly cells: readonly E2eCell[];
  readonly targets: readonly E2eTarget[];
}

/** The targets: dubbo-ts over a peer at a concurrency. */
const TARGETS: readonly { concurrency: number; against: ContenderName; target: number }[] = [
  { concurrency: 64, against: "net", target: 0.6 },
  { concurrency: 64, against: "grpc-js", target: 10 },
  { concurrency: 1, against: "net", target: 0.65 },
];

const READY_TIMEOUT_MS = 60_000;

interface Running {
  readonly server: BenchChild;
  readonly client: BenchChild;
}

function expect(message: ChildMessage, type: "ready"): number;
function expect(message: ChildMessage, type: "result"): CellStats;
function expect(message: ChildMessage, type: "ready" | "result"): number | CellStats {
  if (message.type === "error") throw new Error(`e2e bench child failed:\n${message.message}`);
  if (message.type !== type) throw new Error(`e2e bench: expected ${type}, got ${message.type}`);
  return message.type === "ready" ? message.port : message.stats;
}

async function startContender(name: ContenderName, cpuProfileDir: string | undefined): Promise<Running> {
  const profile =
    cpuProfileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${join(cpuProfileDir, name)}`];
  const server = startBenchChild(`${name} server`, "e2e-server.ts", [name], profile);
  const port = expect(await server.next(READY_TIMEOUT_MS), "ready");
  const client = startBenchChild(`${name} client`, "e2e-client.ts", [name, String(port)], profile);
  try {
    expect(await client.next(READY_TIMEOUT_MS), "ready");
  } catch (error) {
    await Promise.all([client.stop(), server.stop()]);
    throw error;
  }
  return { server, client };
}

function fmtInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function table(cells: readonly E2eCell[]): string {
  const header = `${"workload".padEnd(14)} ${"conc".padStart(4)}  ${"contender".padEnd(9)} ${"req/s".padStart(9)} ${"p50 µs".padStart(8)} ${"p99 µs".padStart(8)}   rounds req/s`;
  const rows = cells.map(
    (c) =>
      `${WORKLOAD_LABELS[c.workload].padEnd(14)} ${String(c.concurrency).padStart(4)}  ${c.contender.padEnd(9)} ${fmtInt(c.median.requestsPerSecond).padStart(9)} ${c.median.p50.toFixed(0).padStart(8)} ${c.median.p99.toFixed(0).padStart(8)}   ${c.rounds.map((r) => fmtInt(r.requestsPerSecond)).join(" / ")}`,
  );
  return [header, ...rows].join("\n");
}

function targetsOf(cells: readonly E2eCell[]): E2eTarget[] {
  const find = (w: WorkloadName, c: number, who: ContenderName) =>
    cells.find((x) => x.workload === w && x.concurrency === c && x.contender === who);
  const out: E2eTarget[] = [];
  for (const workload of new Set(cells.map((c) => c.workload))) {
    for (const t of TARGETS) {
      const ours = find(workload, t.concurrency, "dubbo-ts");
      const peer = find(workload, t.concurrency, t.against);
      if (ours === undefined || peer === undefined) continue;
      const ratio = ours.median.requestsPerSecond / peer.median.requestsPerSecond;
      const roundRatios = ours.rounds.map(
        (r, i) => r.requestsPerSecond / (peer.rounds[i]?.requestsPerSecond ?? 0),
      );
      out.push({
        workload,
        concurrency: t.concurrency,
        against: t.against,
        ratio,
        roundRatios,
        target: t.target,
        met: ratio >= t.target,
      });
    }
  }
  return out;
}

function describeTarget(t: E2eTarget): string {
  const show = (r: number) => (t.target < 1 ? `${(r * 100).toFixed(0)} %` : `${r.toFixed(1)}x`);
  const wanted = t.target < 1 ? `${(t.target * 100).toFixed(0)} %` : `${t.target}x`;
  return `${WORKLOAD_LABELS[t.workload].padEnd(14)} c${String(t.concurrency).padEnd(3)} dubbo-ts / ${t.against.padEnd(7)} ${show(t.ratio).padStart(7)}  (target >= ${wanted.padEnd(4)}) ${t.met ? "PASS" : "MISS"}   rounds ${t.roundRatios.map(show).join(" / ")}`;
}

function medianOf(list: readonly CellStats[]): CellStats {
  const sorted = [...list].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function runE2eBench(options: E2eBenchOptions = {}): Promise<E2eBenchReport> {
  const contenders = options.contenders ?? CONTENDERS;
  const workloads = options.workloads ?? WORKLOADS;
  const concurrencies = options.concurrencies ?? [1, 64];
  const rounds = Math.max(2, options.rounds ?? 3);
  const warmupMs = options.warmupMs ?? 1000;
  const durationMs = options.durationMs ?? 1500;
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  if (options.cpuProfileDir !== undefined) mkdirSync(options.cpuProfileDir, { recursive: true });

  const running = new Map<ContenderName, Running>();
  try {
    for (const name of contenders) running.set(name, await startContender(name, options.cpuProfileDir));
    const results = new Map<string, CellStats[]>();
    const key = (w: WorkloadName, c: number, who: ContenderName) => `${w}/${c}/${who}`;
    for (let round = 0; round < rounds; round++) {
      // Alternate who goes first, so drift on a shared machine does not favour one contender.
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const workload of workloads) {
        for (const concurrency of concurrencies) {
          for (const who of order) {
            const cell = { type: "run", workload, concurrency, warmupMs, durationMs } as const;
            const stats = expect(
              await running.get(who)!.client.run(cell, warmupMs + durationMs + 30_000),
              "result",
            );
            const list = results.get(key(workload, concurrency, who)) ?? [];
            list.push(stats);
            results.set(key(workload, concurrency, who), list);
          }
        }
      }
    }
    const cells: E2eCell[] = [];
    for (const workload of workloads) {
      for (const concurrency of concurrencies) {
        for (const contender of contenders) {
          const list = results.get(key(workload, concurrency, contender)) ?? [];
          cells.push({ workload, concurrency, contender, median: medianOf(list), rounds: list });
        }
      }
    }
    const targets = targetsOf(cells);
    write(
      `End-to-end echo (node ${process.version}; server and client in separate processes, one connection, ` +
        `closed loop; median of ${rounds} alternating rounds of ${durationMs} ms after ${warmupMs} ms warm-up)\n`,
    );
    write(`${table(cells)}\n`);
    if (targets.length > 0) write(`Targets\n${targets.map(describeTarget).join("\n")}\n`);
    return { cells, targets };
  } finally {
    await Promise.all([...running.values()].flatMap((r) => [r.client.stop(), r.server.stop()]));
  }
}

/**
 * `--profile` (or `--profile-dir <dir>`), `--contenders a,b`, `--concurrency 1,64`,
 * `--workloads text,user`, `--duration ms`, `--rounds n`.
 */
function optionsFromArgv(argv: readonly string[]): E2eBenchOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  const list = (flag: string): string[] | undefined => value(flag)?.split(",");
  const contenders = list("--contenders")?.map(parseContenderName);
  const workloads = list("--workloads")?.map((w) => {
    if (w !== "text" && w !== "user") throw new Error(`e2e bench: unknown workload "${w}" (text or user)`);
    return w;
  });
  const concurrencies = list("--concurrency")?.map(Number);
  const duration = value("--duration");
  const rounds = value("--rounds");
  const profileDir = value("--profile-dir") ?? (argv.includes("--profile") ? ".tmp/e2e-profile" : undefined);
  return {
    ...(contenders === undefined ? {} : { contenders }),
    ...(workloads === undefined ? {} : { workloads }),
    ...(concurrencies === undefined ? {} : { concurrencies }),
    ...(duration === undefined ? {} : { durationMs: Number(duration) }),
    ...(rounds === undefined ? {} : { rounds: Number(rounds) }),
    ...(profileDir === undefined ? {} : { cpuProfileDir: profileDir }),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runE2eBench(optionsFromArgv(process.argv.slice(2)));
}
