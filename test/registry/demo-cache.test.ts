// `npm start` (examples/demo.ts) as a new user runs it, twice: its registry's cache files go to the
// temp directory under stable names (one per application), never into ~/.dubbo, where the
// embedded registry's random port would otherwise make a new file per run.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
let home: string;

before(async () => {
  home = await mkdtemp(join(tmpdir(), "dubbo-ts-demo-home-"));
});
after(async () => {
  await rm(home, { recursive: true, force: true });
});

/** Runs the demo to completion with `home` as HOME (SIGKILL after 60 s). */
function runDemo(): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "examples/demo.ts"], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HOME: home },
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => {
    output += s;
  });
  child.stderr.setEncoding("utf8").on("data", (s: string) => {
    output += s;
  });
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("close", (code) => {
      clearTimeout(kill);
      resolve({ code, output });
    });
  });
}

test("demo cache - npm start writes its registry caches to the temp directory, the same files every run", async () => {
  for (const run of [1, 2]) {
    const { code, output } = await runDemo();
    assert.equal(code, 0, `run ${run}: ${output}`);
    assert.equal(existsSync(join(home, ".dubbo")), false, `run ${run} wrote into ~/.dubbo`);
  }
  for (const application of ["provider-a", "provider-b", "demo-consumer"]) {
    const file = join(tmpdir(), `dubbo-ts-demo-${application}.cache`);
    assert.ok(existsSync(file), `${file} exists`);
  }
});
