// One comparison run, shared by the e2e and provider benches: start every contender's server and
// client, run each cell `rounds` times with the contenders alternating, and print req/s, each
// process's cost per call and dubbo-ts's ratios against its peers from the same rounds.
import { mkdirSync } from "node:fs";
import {
  COST_HEADER,
  describeCost,
  fmtInt,
  medianOf,
  type RoundResult,
  type Running,
  roundRatios,
  runCell,
  startPair,
} from "./cells.js";
import { type ServerName, WORKLOAD_LABELS, type WorkloadName } from "./workloads.js";

export interface Ratio {
  readonly against: ServerName;
  readonly concurrency: number;
  /** dubbo-ts's req/s over the peer's must reach this. */
  readonly target: number;
}

export interface ComparisonOptions {
  readonly title: string;
  readonly contenders: readonly ServerName[];
  readonly clientScript: string;
  readonly workloads: readonly WorkloadName[];
  readonly concurrencies: readonly number[];
  readonly ratios: readonly Ratio[];
  /** The contender the ratios are of (default dubbo-ts). */
  readonly ours?: ServerName;
  readonly rounds: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly cpuProfileDir?: string | undefined;
  readonly write: (text: string) => void;
}

function showRatio(ratio: number, target: number): string {
  return target < 1 ? `${(ratio * 100).toFixed(0)} %` : `${ratio.toFixed(2)}x`;
}

export async function runComparison(o: ComparisonOptions): Promise<void> {
  if (o.cpuProfileDir !== undefined) mkdirSync(o.cpuProfileDir, { recursive: true });
  const rounds = Math.max(2, o.rounds);
  const running = new Map<ServerName, Running>();
  try {
    for (const name of o.contenders) {
      running.set(name, await startPair(name, o.clientScript, [name], o.cpuProfileDir));
    }
    const results = new Map<string, RoundResult[]>();
    const key = (w: WorkloadName, c: number, who: ServerName) => `${w}/${c}/${who}`;
    for (let round = 0; round < rounds; round++) {
      // Alternate who goes first, so drift on a shared machine does not favour one contender.
      const order = round % 2 === 0 ? o.contenders : [...o.contenders].reverse();
      for (const workload of o.workloads) {
        for (const concurrency of o.concurrencies) {
          for (const who of order) {
            const result = await runCell(running.get(who)!, workload, concurrency, o.warmupMs, o.durationMs);
            const list = results.get(key(workload, concurrency, who)) ?? [];
            list.push(result);
            results.set(key(workload, concurrency, who), list);
          }
        }
      }
    }
    const lines = [
      `${o.title} (node ${process.version}; every request different; one connection, closed loop; median of ` +
        `${rounds} alternating rounds of ${o.durationMs} ms after ${o.warmupMs} ms warm-up; cost per call)`,
      `${"workload".padEnd(13)} ${"conc".padStart(4)}  ${"contender".padEnd(9)} ${"req/s".padStart(8)} ${"p50 µs".padStart(7)} ${"p99 µs".padStart(7)}  client ${COST_HEADER}  server ${COST_HEADER}   rounds req/s`,
    ];
    for (const workload of o.workloads) {
      for (const concurrency of o.concurrencies) {
        for (const who of o.contenders) {
          const list = results.get(key(workload, concurrency, who)) ?? [];
          const m = medianOf(list);
          lines.push(
            `${WORKLOAD_LABELS[workload].padEnd(13)} ${String(concurrency).padStart(4)}  ${who.padEnd(9)} ${fmtInt(m.stats.requestsPerSecond).padStart(8)} ${m.stats.p50.toFixed(0).padStart(7)} ${m.stats.p99.toFixed(0).padStart(7)}  ${describeCost(m.client, m.stats.calls)}  ${describeCost(m.server, m.stats.calls)}   ${list.map((r) => fmtInt(r.stats.requestsPerSecond)).join(" / ")}`,
          );
        }
        const ours = results.get(key(workload, concurrency, o.ours ?? "dubbo-ts"));
        for (const r of o.ratios.filter((x) => x.concurrency === concurrency)) {
          const peer = results.get(key(workload, concurrency, r.against));
          if (ours === undefined || peer === undefined) continue;
          const ratio = medianOf(ours).stats.requestsPerSecond / medianOf(peer).stats.requestsPerSecond;
          lines.push(
            `${" ".repeat(20)}${o.ours ?? "dubbo-ts"} / ${r.against}: ${showRatio(ratio, r.target)} (target >= ${showRatio(r.target, r.target)}: ${ratio >= r.target ? "PASS" : "MISS"}), rounds ${roundRatios(
              ours,
              peer,
            )
              .map((x) => showRatio(x, r.target))
              .join(" / ")}`,
          );
        }
      }
    }
    o.write(`${lines.join("\n")}\n`);
  } finally {
    await Promise.all([...running.values()].flatMap((r) => [r.client.stop(), r.server.stop()]));
  }
}
