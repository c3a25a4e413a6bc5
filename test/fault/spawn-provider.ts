import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("./fixtures/fault-provider.ts", import.meta.url));

export interface ProviderProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** Everything the provider wrote to stderr so far (its warnings). */
  stderr(): string;
  /** Resolves with the exit code once the process is gone. */
  readonly exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
}

/** Starts the fault provider in its own process and waits (bounded) for READY <port>. */
export async function spawnProvider(port = 0, params = ""): Promise<ProviderProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, String(port), params], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`provider did not start in 20 s: ${err}`)), 20_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`provider exited with ${code} before READY: ${err}`));
    });
  });
  return {
    child,
    port: ready,
    stderr: () => err,
    exited,
    kill(signal = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(child.pid, signal);
        } catch {
          // already gone
        }
      }
    },
  };
}
