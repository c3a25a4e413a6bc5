// A soak provider process on a fixed port: started, killed with SIGKILL, started again on the same
// port. Stopped by pid only.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const PROVIDER = fileURLToPath(new URL("./soak-provider.ts", import.meta.url));
const START_LIMIT_MS = 30_000;

export interface SoakProvider {
  readonly id: string;
  readonly port: number;
  /** Starts the process and waits (bounded) for READY. */
  start(): Promise<void>;
  /** SIGKILL by pid, then waits for the exit. */
  kill(): Promise<void>;
  readonly restarts: number;
}

export function soakProvider(id: string, port: number, registryAddress: string): SoakProvider {
  let child: ChildProcess | undefined;
  let restarts = -1;
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  return {
    id,
    port,
    get restarts() {
      return Math.max(0, restarts);
    },
    async start() {
      restarts++;
      const started = spawn(
        process.execPath,
        ["--import", "tsx", PROVIDER, registryAddress, String(port), id],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      child = started;
      let err = "";
      started.stderr?.on("data", (d: Buffer) => {
        err += d.toString();
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${id} gave no READY in ${START_LIMIT_MS} ms: ${err}`)),
          START_LIMIT_MS,
        );
        started.stdout?.on("data", (d: Buffer) => {
          if (d.toString().includes("READY")) {
            clearTimeout(timer);
            resolve();
          }
        });
        started.once("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`${id} exited with ${code} before READY: ${err}`));
        });
      });
    },
    async kill() {
      const running = child;
      if (running === undefined || !alive() || running.pid === undefined) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      try {
        process.kill(running.pid, "SIGKILL");
      } catch {
        return; // already gone
      }
      await exited;
    },
  };
}
