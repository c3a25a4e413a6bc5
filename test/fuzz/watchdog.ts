// A hang detector for synchronous targets: the fuzz loop copies each input into shared memory and
// bumps a counter; a worker thread that sees the counter stand still for `limitMs` saves that input
// as a finding and ends the process (the loop itself cannot be interrupted).
import { Worker } from "node:worker_threads";

export interface Watchdog {
  /** Call before running `input`. */
  arm(input: Buffer): void;
  stop(): Promise<void>;
}

const WORKER = `
const { workerData } = require("node:worker_threads");
const { writeFileSync, mkdirSync } = require("node:fs");
const { createHash } = require("node:crypto");
const state = new Int32Array(workerData.shared, 0, 2);
const bytes = new Uint8Array(workerData.shared, 8);
let last = -1;
setInterval(() => {
  const now = Atomics.load(state, 0);
  if (now !== last) { last = now; return; }
  if (now === 0) return;
  const input = Buffer.from(bytes.subarray(0, Atomics.load(state, 1)));
  const name = "hang-" + createHash("sha1").update(input).digest("hex").slice(0, 12);
  mkdirSync(workerData.findings, { recursive: true });
  writeFileSync(workerData.findings + "/" + name, input);
  process.stderr.write("FINDING " + workerData.target + ": an input ran over " + workerData.limitMs + " ms, saved as " + workerData.findings + "/" + name + "\\n");
  process.kill(process.pid, "SIGKILL");
}, workerData.limitMs).unref?.();
`;

export function startWatchdog(
  target: string,
  findings: string,
  maxLength: number,
  limitMs: number,
): Watchdog {
  const shared = new SharedArrayBuffer(8 + maxLength);
  const state = new Int32Array(shared, 0, 2);
  const bytes = new Uint8Array(shared, 8);
  const worker = new Worker(WORKER, { eval: true, workerData: { shared, target, findings, limitMs } });
  worker.unref();
  return {
    arm(input) {
      bytes.set(input.subarray(0, maxLength));
      Atomics.store(state, 1, Math.min(input.length, maxLength));
      Atomics.add(state, 0, 1);
    },
    async stop() {
      await worker.terminate();
    },
  };
}
