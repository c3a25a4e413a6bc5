// The command-line flags every comparison bench takes.
import { WORKLOADS, type WorkloadName } from "./e2e/workloads.js";

export interface BenchOptions {
  readonly workloads: readonly WorkloadName[];
  readonly concurrencies: readonly number[];
  /** At least 2; contenders alternate order between rounds. */
  readonly rounds: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** When set, every server and client writes `--cpu-prof` profiles into `<dir>/<contender>/`. */
  readonly cpuProfileDir: string | undefined;
  readonly contenders: readonly string[] | undefined;
}

/**
 * `--profile` (or `--profile-dir <dir>`), `--contenders a,b`, `--concurrency 1,64`,
 * `--workloads text,user`, `--duration ms`, `--warmup ms`, `--rounds n`.
 */
export function benchOptionsFromArgv(argv: readonly string[], profileName: string): BenchOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  const list = (flag: string): string[] | undefined => value(flag)?.split(",");
  const workloads = list("--workloads")?.map((w) => {
    if (w !== "text" && w !== "user") throw new Error(`bench: unknown workload "${w}" (text or user)`);
    return w;
  });
  return {
    workloads: workloads ?? WORKLOADS,
    concurrencies: list("--concurrency")?.map(Number) ?? [1, 64],
    rounds: Math.max(2, Number(value("--rounds") ?? 3)),
    warmupMs: Number(value("--warmup") ?? 1000),
    durationMs: Number(value("--duration") ?? 1500),
    cpuProfileDir:
      value("--profile-dir") ?? (argv.includes("--profile") ? `.tmp/${profileName}-profile` : undefined),
    contenders: list("--contenders"),
  };
}
