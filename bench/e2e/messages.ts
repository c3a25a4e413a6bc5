// What the bench drivers and their server and client processes say to each other over IPC.
import type { CellStats } from "./closed-loop.js";
import type { ProcessCost } from "./measure.js";
import type { WorkloadName } from "./workloads.js";

/** Run a closed loop (a warm-up is a run whose answer the driver drops). */
export interface RunCell {
  readonly type: "run";
  readonly workload: WorkloadName;
  readonly concurrency: number;
  readonly durationMs: number;
}

/** Asks a server process to start or stop metering its own cost. */
export interface MeterCommand {
  readonly type: "meter-start" | "meter-stop";
}

export type DriverMessage = RunCell | MeterCommand;

export type ChildMessage =
  | { readonly type: "ready"; readonly port: number }
  | { readonly type: "result"; readonly stats: CellStats; readonly cost: ProcessCost }
  | { readonly type: "metering" }
  | { readonly type: "cost"; readonly cost: ProcessCost }
  | { readonly type: "error"; readonly message: string };
