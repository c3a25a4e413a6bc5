// Starts a bench process (server or client) under tsx with an IPC channel, and talks to it. The
// process runs the compiled package: `dubbo-ts` resolves to `dist/` (npm run build first).
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ChildMessage, DriverMessage } from "./messages.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
/**
 * The children's tsconfig: the project's without its `paths`, which map `dubbo-ts` to `src/` for
 * the type checker and for tsx. Without it, tsx would run the bench against the sources; with it,
 * `dubbo-ts` resolves through the package's `exports` to the compiled `dist/`, as in an application.
 */
const CHILD_TSCONFIG = fileURLToPath(new URL("../tsconfig.compiled.json", import.meta.url));

export interface BenchChild {
  readonly pid: number | undefined;
  /** Waits for the child's next message, failing after `timeoutMs` or if the child exits first. */
  next(timeoutMs: number): Promise<ChildMessage>;
  /** Sends a message and waits for the child's answer. */
  ask(message: DriverMessage, timeoutMs: number): Promise<ChildMessage>;
  stop(): Promise<void>;
}

export function startBenchChild(
  label: string,
  script: string,
  args: readonly string[],
  extraExecArgv: readonly string[] = [],
): BenchChild {
  const child: ChildProcess = fork(fileURLToPath(new URL(`../${script}`, import.meta.url)), [...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: CHILD_TSCONFIG },
    execArgv: ["--import", "tsx", ...extraExecArgv],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const inbox: ChildMessage[] = [];
  let waiter: ((message: ChildMessage | Error) => void) | undefined;
  let exited: Error | undefined;
  child.on("message", (message: ChildMessage) => {
    if (waiter === undefined) inbox.push(message);
    else waiter(message);
  });
  child.on("exit", (code, signal) => {
    exited = new Error(`e2e bench: ${label} exited (code ${code}, signal ${signal})`);
    waiter?.(exited);
  });

  const next = (timeoutMs: number): Promise<ChildMessage> => {
    const queued = inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (exited !== undefined) return Promise.reject(exited);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiter = undefined;
        reject(new Error(`e2e bench: ${label} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      waiter = (message) => {
        clearTimeout(timer);
        waiter = undefined;
        if (message instanceof Error) reject(message);
        else resolve(message);
      };
    });
  };

  return {
    pid: child.pid,
    next,
    ask(message, timeoutMs) {
      child.send(message);
      return next(timeoutMs);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}
