import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("./fixtures/cluster-provider.ts", import.meta.url));
// A provider starts in well under a second; the margin is for a machine loaded by other test files.
const START_LIMIT_MS = 60_000;

export interface ClusterProvider {
  readonly id: string;
  readonly port: number;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  /** True once the process has exited. */
  hasExited(): boolean;
  /** Sends a signal to this process by pid; a no-op once it has exited. */
  kill(signal?: NodeJS.Signals): void;
  /** What the provider wrote to stderr so far. */
  stderr(): string;
}

/** Starts a cluster-test provider process and waits (bounded) for its READY line. */
export async function spawnClusterProvider(id: string, latencyMs: number): Promise<ClusterProvider> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", FIXTURE, id, String(latencyMs)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const kill = (signal: NodeJS.Signals = "SIGKILL") => {
    if (hasExited() || child.pid === undefined) return;
    try {
      process.kill(child.pid, signal);
    } catch {
      // already gone
    }
  };
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`provider ${id} did not print READY in ${START_LIMIT_MS} ms: ${err}`));
    }, START_LIMIT_MS);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /READY (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`provider ${id} exited with ${code} before READY: ${err}`));
    });
  });
  return { id, port, exited, hasExited, kill, stderr: () => err };
}

/** Starts several providers in parallel; if one fails to start, the others are killed. */
export async function spawnClusterProviders(
  specs: ReadonlyArray<{ readonly id: string; readonly latencyMs: number }>,
): Promise<ClusterProvider[]> {
  const started = await Promise.allSettled(specs.map((s) => spawnClusterProvider(s.id, s.latencyMs)));
  const providers = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const failure = started.find((r) => r.status === "rejected");
  if (failure !== undefined) {
    for (const p of providers) p.kill();
    throw failure.reason;
  }
  return providers;
}

/** Kills every provider still running (by pid) and waits, bounded, for them to exit. */
export async function killAll(providers: readonly ClusterProvider[], limitMs = 5_000): Promise<void> {
  for (const p of providers) p.kill("SIGKILL");
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limitMs);
    timer.unref();
  });
  await Promise.race([Promise.all(providers.map((p) => p.exited)), limit]);
  clearTimeout(timer);
}

/** The `url=` value listing providers by port. */
export function directUrls(providers: readonly ClusterProvider[]): string {
  return providers.map((p) => `dubbo://127.0.0.1:${p.port}`).join(";");
}
