// Cold start: the wall time from spawning a process to its provider being ready (service exported,
// port bound) and to a consumer's first answer (createDubbo, refer with the default lazy=false,
// which connects and waits out the 100 ms double check, then one call), for the compiled package
// under bare `node` and for the sources under `tsx`, with each process's own CPU to that point
// (the part a loaded machine inflates least; the wait is none of it). Contenders alternate per round.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./cold-start-child.mjs", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SOURCE_ENTRY = new URL("../../src/index.ts", import.meta.url).href;

type Mode = "compiled" | "tsx";

interface Started {
  readonly ms: number;
  readonly line: string;
  /** Stops the child (a consumer has exited by itself) and resolves once it is gone. */
  readonly stop: () => Promise<void>;
}

/** Spawns one cold child and resolves at its first stdout line, with the ms since the spawn. */
function startChild(mode: Mode, role: "provider" | "consumer", port = ""): Promise<Started> {
  const loader = mode === "tsx" ? ["--import", "tsx"] : [];
  const spec = mode === "tsx" ? SOURCE_ENTRY : "dubbo-ts";
  const t0 = performance.now();
  const child = spawn(process.execPath, [...loader, CHILD, role, spec, port], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    exited.then((code) => reject(new Error(`cold-start child ${role} (${mode}) exited with ${code}`)));
    createInterface({ input: child.stdout }).once("line", (line) => {
      resolve({ ms: performance.now() - t0, line, stop });
    });
  });
}

/** The child's `cpu=<ms>` field. */
function cpuOf(started: Started): string {
  const cpu = started.line.split(" ").find((field) => field.startsWith("cpu="));
  return `${cpu?.slice(4) ?? "?"} ms CPU`;
}

export async function runColdStartBench(options: { readonly rounds: number }): Promise<void> {
  console.log(
    "cold start: spawn to provider ready, spawn to the consumer's first answer (wall ms, own CPU ms)",
  );
  for (let round = 1; round <= options.rounds; round++) {
    const order: Mode[] = round % 2 === 1 ? ["compiled", "tsx"] : ["tsx", "compiled"];
    for (const mode of order) {
      const provider = await startChild(mode, "provider");
      const port = provider.line.split(" ")[1] ?? "";
      const consumer = await startChild(mode, "consumer", port);
      console.log(
        `  round ${round}, ${mode.padEnd(8)} provider ready ${provider.ms.toFixed(0)} ms (${cpuOf(provider)}), consumer first answer ${consumer.ms.toFixed(0)} ms (${cpuOf(consumer)})`,
      );
      await consumer.stop();
      await provider.stop();
    }
  }
}
