// Runs the installed command (`bin/dubbo-ts.mjs`) of this checkout, as an operator types it.
import { join } from "node:path";
import { type Finished, REPO_ROOT, runToEnd } from "../run-process.js";

const BIN = join(REPO_ROOT, "bin", "dubbo-ts.mjs");

export function dubboTs(...args: string[]): Promise<Finished> {
  return runToEnd(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, timeoutMs: 60_000 });
}
