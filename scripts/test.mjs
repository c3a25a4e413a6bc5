#!/usr/bin/env node
// The one test command: type-check, lint, layering gate, unused-code gate (knip), then every test
// file under src/ and test/, after making sure the real peers the tests need (Java Hessian,
// ZooKeeper, Java Dubbo from Maven Central) are present.
// Usage: npm test [-- --only-tests] [-- <path filter>...]
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ensureJavaDubbo } from "./java-dubbo-deps.mjs";
import { ensureSystemPackages } from "./system-deps.mjs";

const argv = process.argv.slice(2);
const onlyTests = argv.includes("--only-tests");
const filters = argv.filter((a) => !a.startsWith("--"));

function run(label, command, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${label}\n`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stdout.write(`✖ ${label} failed after ${seconds}s\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`✔ ${label} (${seconds}s)\n`);
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

const files = testFiles();
if (files.length === 0) {
  process.stdout.write("no test files matched\n");
  process.exit(1);
}
run(
  `tests (${files.length} files)`,
  process.execPath,
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
