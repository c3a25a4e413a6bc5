// Runs one measuring process of a scale bench: `node --expose-gc --import tsx <script> <args>`,
// stderr passed through, and its last stdout line parsed as its JSON figures.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export function runGcChild<T>(script: string, args: readonly string[]): Promise<T> {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", path, ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = out.trim().split("\n").at(-1);
      if (code !== 0 || line === undefined) reject(new Error(`${script} exited with ${code}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}
