// scripts/test.mjs runs the test runner in a process group (and session) of its own: a signal that
// ends `npm test` must reach that group, or the test files and their peers run on without it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { REPO_ROOT } from "../run-process.js";

/** A test file that writes its pid, then waits (bounded) for the signal that should end it. */
const SLEEPER = `import { writeFileSync } from "node:fs";
import { test } from "node:test";
test("waits", async () => {
  writeFileSync(process.env.SLEEPER_PID_FILE, String(process.pid));
  await new Promise((resolve) => setTimeout(resolve, 120_000));
});
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `ready` every 100 ms, at most `rounds` times. */
async function waitFor(ready: () => boolean, rounds: number): Promise<boolean> {
  for (let i = 0; i < rounds; i++) {
    if (ready()) return true;
    await sleep(100);
  }
  return ready();
}

describe("scripts/test.mjs", () => {
  for (const signal of ["SIGHUP", "SIGTERM", "SIGINT"] as const) {
    test(`${signal} to npm test ends the test files it runs, and the run exits as ended by ${signal}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "dubbo-ts-runner-"));
      const pidFile = join(dir, "sleeper.pid");
      let sleeper: number | undefined;
      try {
        symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"));
        mkdirSync(join(dir, "test"));
        writeFileSync(join(dir, "test", "sleeper.test.ts"), SLEEPER);
        const run = spawn(process.execPath, [join(REPO_ROOT, "scripts", "test.mjs"), "--only-tests"], {
          cwd: dir,
          // Without the outer runner's NODE_TEST_CONTEXT, as `npm test` is started from a shell.
          env: { ...process.env, NODE_TEST_CONTEXT: undefined, SLEEPER_PID_FILE: pidFile },
          stdio: "ignore",
        });
        let ended = false;
        const exited = once(run, "exit").finally(() => {
          ended = true;
        });
        const started = () => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "";
        assert.ok(await waitFor(() => ended || started(), 600), "the test file started");
        assert.ok(!ended, "npm test was still running");
        sleeper = Number(readFileSync(pidFile, "utf8"));
        run.kill(signal);
        const [code] = await exited;
        assert.ok(
          await waitFor(() => !alive(sleeper!), 100),
          `test file ${sleeper} still runs after ${signal}`,
        );
        assert.equal(
          code,
          128 + constants.signals[signal],
          "the run exits with 128 + the signal's number, as a shell reports an interrupted command",
        );
      } finally {
        if (sleeper !== undefined && alive(sleeper)) process.kill(sleeper, "SIGKILL");
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
