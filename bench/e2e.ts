/**
 * End-to-end echo benchmark: what an application pays. dubbo-ts through the compiled package's
 * public API (createDubbo, export, refer) against a raw node:net length-prefixed JSON echo (the
 * ceiling). Each contender's server and client run in their own processes over one connection;
 * each cell is a closed loop of N callers, every request different (argument bytes and a `trace`
 * attachment per call), run `rounds` times with the contenders alternating (the machine is shared
 * and noisy). Reports req/s, each process's CPU and heap allocation per call and GC share, and the
 * ratios against the targets from the same rounds.
 * Run: `npm run build && npx tsx bench/e2e.ts` (`--profile` writes CPU profiles of every process to
 * .tmp/e2e-profile/<contender>/; see optionsFromArgv for the other flags).
 */
import { mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import {
  COST_HEADER,
  describeCost,
  fmtInt,
  medianOf,
  percent,
  type RoundResult,
  type Running,
  roundRatios,
  runCell,
  startPair,
} from "./e2e/cells.js";
import { parseContenderName } from "./e2e/contenders.js";
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

/** The targets: dubbo-ts over the raw echo at a concurrency. */
const TARGETS: readonly { concurrency: number; target: number }[] = [
  { concurrency: 1, target: 0.65 },
  { concurrency: 64, target: 0.8 },
];

export async function runE2eBench(options: E2eBenchOptions = {}): Promise<void> {
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
    for (const name of contenders) {
      running.set(name, await startPair(name, "e2e-client.ts", [name], options.cpuProfileDir));
    }
    const results = new Map<string, RoundResult[]>();
    const key = (w: WorkloadName, c: number, who: ContenderName) => `${w}/${c}/${who}`;
    for (let round = 0; round < rounds; round++) {
      // Alternate who goes first, so drift on a shared machine does not favour one contender.
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const workload of workloads) {
        for (const concurrency of concurrencies) {
          for (const who of order) {
            const result = await runCell(running.get(who)!, workload, concurrency, warmupMs, durationMs);
            const list = results.get(key(workload, concurrency, who)) ?? [];
            list.push(result);
            results.set(key(workload, concurrency, who), list);
          }
        }
      }
    }
    write(
      `End-to-end echo (node ${process.version}; every request different; server and client in separate ` +
        `processes, one connection, closed loop; median of ${rounds} alternating rounds of ${durationMs} ms ` +
        `after ${warmupMs} ms warm-up; cost columns: client then server, per call)\n`,
    );
    write(
      `${"workload".padEnd(13)} ${"conc".padStart(4)}  ${"contender".padEnd(9)} ${"req/s".padStart(8)} ${"p50 µs".padStart(7)} ${"p99 µs".padStart(7)}  client ${COST_HEADER}  server ${COST_HEADER}   rounds req/s\n`,
    );
    const lines: string[] = [];
    for (const workload of workloads) {
      for (const concurrency of concurrencies) {
        for (const who of contenders) {
          const list = results.get(key(workload, concurrency, who)) ?? [];
          const m = medianOf(list);
          lines.push(
            `${WORKLOAD_LABELS[workload].padEnd(13)} ${String(concurrency).padStart(4)}  ${who.padEnd(9)} ${fmtInt(m.stats.requestsPerSecond).padStart(8)} ${m.stats.p50.toFixed(0).padStart(7)} ${m.stats.p99.toFixed(0).padStart(7)}  ${describeCost(m.client, m.stats.calls).padStart(32)}  ${describeCost(m.server, m.stats.calls).padStart(32)}   ${list.map((r) => fmtInt(r.stats.requestsPerSecond)).join(" / ")}`,
          );
        }
        const ours = results.get(key(workload, concurrency, "dubbo-ts"));
        const peer = results.get(key(workload, concurrency, "net"));
        const target = TARGETS.find((t) => t.concurrency === concurrency);
        if (ours === undefined || peer === undefined) continue;
        const ratio = medianOf(ours).stats.requestsPerSecond / medianOf(peer).stats.requestsPerSecond;
        const verdict =
          target === undefined
            ? ""
            : ` (target >= ${percent(target.target)}: ${ratio >= target.target ? "PASS" : "MISS"})`;
        lines.push(
          `${"".padEnd(13)} ${"".padStart(4)}  dubbo-ts / net ${percent(ratio)}${verdict}, rounds ${roundRatios(ours, peer).map(percent).join(" / ")}`,
        );
      }
    }
    write(`${lines.join("\n")}\n`);
  } finally {
    await Promise.all([...running.values()].flatMap((r) => [r.client.stop(), r.server.stop()]));
  }
}

/**
 * `--profile` (or `--profile-dir <dir>`), `--contenders a,b`, `--concurrency 1,64`,
 * `--workloads text,user`, `--duration ms`, `--warmup ms`, `--rounds n`.
 */
export function optionsFromArgv(argv: readonly string[]): E2eBenchOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  const list = (flag: string): string[] | undefined => value(flag)?.split(",");
  const contenders = list("--contenders")?.map(parseContenderName);
  const workloads = list("--workloads")?.map((w) => {
    if (w !== "text" && w !== "user") throw new Error(`bench: unknown workload "${w}" (text or user)`);
    return w;
  });
  const concurrencies = list("--concurrency")?.map(Number);
  const duration = value("--duration");
  const warmup = value("--warmup");
  const rounds = value("--rounds");
  const profileDir = value("--profile-dir") ?? (argv.includes("--profile") ? ".tmp/e2e-profile" : undefined);
  return {
    ...(contenders === undefined ? {} : { contenders }),
    ...(workloads === undefined ? {} : { workloads }),
    ...(concurrencies === undefined ? {} : { concurrencies }),
    ...(duration === undefined ? {} : { durationMs: Number(duration) }),
    ...(warmup === undefined ? {} : { warmupMs: Number(warmup) }),
    ...(rounds === undefined ? {} : { rounds: Number(rounds) }),
    ...(profileDir === undefined ? {} : { cpuProfileDir: profileDir }),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runE2eBench(optionsFromArgv(process.argv.slice(2)));
}
