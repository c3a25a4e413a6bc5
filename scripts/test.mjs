#!/usr/bin/env node
// The one test command: type-check, lint, layering gate, unused-code gate (knip), then every test
// file under src/ and test/, after making sure the real peers the tests need (Java Hessian,
// ZooKeeper, Java Dubbo from Maven Central) are present.
// Usage: npm test [-- --only-tests] [-- <path filter>...]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import { ensureJavaDubbo } from "./java-dubbo-deps.mjs";
import { ensureSystemPackages } from "./system-deps.mjs";

const argv = process.argv.slice(2);
const onlyTests = argv.includes("--only-tests");
const filters = argv.filter((a) => !a.startsWith("--"));

/** The exit status a shell gives a command that `signal` ended: 128 plus its number. */
const signalStatus = (signal) => 128 + (constants.signals[signal] ?? 0);

/**
 * Prints how step `label`, begun at `started`, ended; a failed step ends this script with its
 * status, or with 128 + n when signal n ended it (so a caller can tell an interrupted run from
 * failing tests).
 */
function finishStep(label, started, status, signal) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (status !== 0) {
    process.stdout.write(`✖ ${label} failed after ${seconds}s${signal ? ` (${signal})` : ""}\n`);
    process.exit(signal ? signalStatus(signal) : (status ?? 1));
  }
  process.stdout.write(`✔ ${label} (${seconds}s)\n`);
}

function run(label, command, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${label}\n`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  finishStep(label, started, result.status, result.signal);
}

function testFiles() {
  const files = [];
  for (const root of ["src", "test"].filter((r) => existsSync(r))) {
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith(".test.ts"))
        files.push(join(entry.parentPath ?? entry.path, entry.name));
    }
  }
  return files.sort().filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)));
}

const bin = (name) => join("node_modules", ".bin", name);

if (!onlyTests) {
  run("type-check (tsc --noEmit)", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]);
  run("lint (biome check)", bin("biome"), ["check", "."]);
  run("layers and cycles (dependency-cruiser)", bin("depcruise"), [
    "src",
    "--config",
    ".dependency-cruiser.cjs",
  ]);
  run("unused files, exports and dependencies (knip)", bin("knip"), []);
}

ensureSystemPackages();
try {
  ensureJavaDubbo();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

/** The processes still in process group `group` (pid and command line), read from /proc (Linux). */
function processesOfGroup(group) {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 5 of /proc/<pid>/stat is the process group; the command name (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // A zombie ('Z', ended and waiting for its parent) is not running.
      if (Number(fields[2]) === group && fields[0] !== "Z") {
        const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
        found.push(`${entry} (${command})`);
      }
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/**
 * Runs the test runner in a process group of its own, so that whatever a test file started and
 * did not stop (a peer of a file that timed out) is stopped by that group when the run ends, and
 * named, since a leftover process is a test bug.
 */
function runTests(label, args, env) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${label}\n`);
  const runner = spawn(process.execPath, args, {
    stdio: "inherit",
    detached: true,
    env: { ...process.env, ...env },
  });
  // The group is in a session of its own (detached), so a hangup of our terminal reaches it only
  // through us, as Ctrl-C and a kill do.
  let received;
  const forward = (signal) => {
    received ??= signal;
    try {
      process.kill(-runner.pid, signal);
    } catch {
      // the group has ended
    }
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, forward);
  runner.on("exit", (code, signal) => {
    const leftovers = processesOfGroup(runner.pid);
    if (leftovers.length > 0) {
      process.stdout.write(
        `⚠ stopping ${leftovers.length} process(es) the tests left running: ${leftovers.join("; ")}\n`,
      );
      try {
        process.kill(-runner.pid, "SIGKILL");
      } catch {
        // they ended meanwhile
      }
    }
    // A runner that handled the forwarded signal may even exit 0: the run was interrupted all the same.
    finishStep(label, started, received === undefined ? code : null, signal ?? received);
  });
}

const files = testFiles();
if (files.length === 0) {
  process.stdout.write("no test files matched\n");
  process.exit(1);
}
runTests(
  `tests (${files.length} files)`,
  [
    "--import",
    "tsx",
    "--test",
    "--test-reporter=spec",
    "--test-concurrency=2",
    "--test-timeout=300000",
    ...files,
  ],
  { DUBBO_TS_TEST: "1" },
);
