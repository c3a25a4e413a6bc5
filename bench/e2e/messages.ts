// What the bench driver and its server and client processes say to each other over IPC.
import type { CellStats } from "./closed-loop.js";
import type { WorkloadName } from "./workloads.js";

export interface RunCell {
  readonly type: "run";
  readonly workload: WorkloadName;
  readonly concurrency: number;
  readonly warmupMs: number;
  readonly durationMs: number;
}

export type ChildMessage =
  | { readonly type: "ready"; readonly port: number }
  | { readonly type: "result"; readonly stats: CellStats }
  | { readonly type: "error"; readonly message: string };
