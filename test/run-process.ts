// Child processes for the tests that run programs as users do: run one to completion, or wait for a line it prints.
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Prints the host of every server a process listens on (see the fixture). */
export const RECORD_LISTEN = fileURLToPath(new URL("./package/fixtures/record-listen.mjs", import.meta.url));

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end (SIGKILL after `timeoutMs`) and collects its output; never rejects. */
export function runToEnd(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { readonly timeoutMs?: number } = {},
): Promise<Finished> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
  });
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
    child.once("error", (error) => {
      clearTimeout(kill);
      resolve({ code: null, stdout, stderr: `${stderr}${error.message}` });
    });
    child.once("close", (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Resolves with the first stdout line matching `pattern`; rejects on exit or after 30 s. */
export function lineOf(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} printed no ${pattern} in 30 s: ${stderr}`)),
      30_000,
    );
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before printing ${pattern}: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = pattern.exec(line);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match);
    });
  });
}

/** Stops a child with SIGTERM (SIGKILL after 10 s); resolves with its exit code once it has exited. */
export function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", (code) => {
      clearTimeout(kill);
      resolve(code);
    });
    child.kill("SIGTERM");
  });
}

/** The hosts a process run with `--import RECORD_LISTEN` listened on. */
export function listenedHosts(stderr: string): string[] {
  return [...stderr.matchAll(/^listen-recorder: (.*)$/gm)].map((m) => m[1]!);
}
