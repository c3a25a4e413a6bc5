// Runs the repository's examples as real child processes, as `npm run example:provider` and
// `npm run example:consumer` do (node with the tsx loader, without npm in between, so the pid we
// signal is the example's own).
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

function spawnExample(file: string, args: readonly string[]) {
  return spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "examples", file), ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export interface ExampleProvider {
  readonly port: number;
  readonly pid: number | undefined;
  /** SIGTERM (graceful), then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `examples/provider.ts --port 0` and resolves once it printed `READY <port>`. */
export function startExampleProvider(timeoutMs = 60_000): Promise<ExampleProvider> {
  const proc = spawnExample("provider.ts", ["--port", "0"]);
  const stderr: string[] = [];
  proc.stderr.setEncoding("utf8").on("data", (s: string) => stderr.push(s));
  const stop = (graceMs = 5000): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => proc.kill("SIGKILL"), graceMs);
      proc.once("exit", () => {
        clearTimeout(kill);
        resolve();
      });
      proc.kill("SIGTERM");
    });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(0);
      reject(new Error(`example provider printed no READY line within ${timeoutMs} ms:\n${stderr.join("")}`));
    }, timeoutMs);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`example provider exited with ${code} before READY:\n${stderr.join("")}`));
    });
    createInterface({ input: proc.stdout }).on("line", (line) => {
      const ready = /^READY (\d+)$/.exec(line);
      if (ready === null) return;
      clearTimeout(timer);
      resolve({ port: Number(ready[1]), pid: proc.pid, stop });
    });
  });
}

export interface ConsumerRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `examples/consumer.ts --url <url> --name <name>` to completion (killed after `timeoutMs`). */
export function runExampleConsumer(url: string, name: string, timeoutMs = 60_000): Promise<ConsumerRun> {
  const proc = spawnExample("consumer.ts", ["--url", url, "--name", name]);
  const out: string[] = [];
  const err: string[] = [];
  proc.stdout.setEncoding("utf8").on("data", (s: string) => out.push(s));
  proc.stderr.setEncoding("utf8").on("data", (s: string) => err.push(s));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`example consumer did not finish within ${timeoutMs} ms:\n${err.join("")}`));
    }, timeoutMs);
    proc.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    proc.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: out.join(""), stderr: err.join("") });
    });
  });
}
