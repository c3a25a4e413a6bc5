// The dubbo-ts command as a user runs it: the bin spawned as a process (in this checkout it runs
// the sources through tsx; test/package/installed-package.test.ts runs the published build).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, test } from "node:test";
import { type Finished, listenedHosts, RECORD_LISTEN, REPO_ROOT, runToEnd } from "../run-process.js";

const BIN = join(REPO_ROOT, "bin", "dubbo-ts.mjs");
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

function dubboTs(...args: string[]): Promise<Finished> {
  return runToEnd(process.execPath, ["--import", RECORD_LISTEN, BIN, ...args], { cwd: REPO_ROOT });
}

/** A usage error: exit 2, one stderr line (beside the listen recorder's) that says `pattern`, no stack. */
function assertUsageError(run: Finished, pattern: RegExp): void {
  assert.equal(run.code, 2, run.stderr);
  const lines = run.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("listen-recorder:"));
  assert.equal(lines.length, 1, `one line, no stack trace:\n${run.stderr}`);
  assert.match(lines[0]!, pattern);
  assert.deepEqual(listenedHosts(run.stderr), [], "a refused command starts nothing");
}

describe("the dubbo-ts command", () => {
  test("cli - --version prints the package's version", async () => {
    const run = await dubboTs("--version");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${VERSION}\n`);
  });

  test("cli - --help and <command> --help print usage and start nothing", async () => {
    const top = await dubboTs("--help");
    assert.equal(top.code, 0, top.stderr);
    assert.match(top.stdout, /usage: dubbo-ts <command>/);
    const registry = await dubboTs("registry", "--port", "0", "--help");
    assert.equal(registry.code, 0, registry.stderr);
    assert.match(registry.stdout, /usage: dubbo-ts registry/);
    assert.match(registry.stdout, /--recovery/);
    assert.doesNotMatch(registry.stdout, /listening/);
    assert.deepEqual(listenedHosts(registry.stderr), [], "--help opened no port");
  });

  test("cli - a wrong flag, a bad value or a missing value is one line naming the flag", async () => {
    assertUsageError(
      await dubboTs("registry", "--prot", "9090"),
      /unknown flag --prot; the flags are --host, --port, --recovery/,
    );
    assertUsageError(
      await dubboTs("registry", "--port", "70000"),
      /--port 70000 is not a port .*change --port/,
    );
    assertUsageError(await dubboTs("registry", "--recovery=soon"), /--recovery soon is not a number of ms/);
    assertUsageError(await dubboTs("registry", "--host"), /--host needs a value/);
    assertUsageError(await dubboTs("registry", "9090"), /unexpected argument "9090"/);
    assertUsageError(await dubboTs("regsitry"), /unknown command "regsitry"/);
  });

  test("cli - a port in use is one line that says to choose another --port", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = taken.address() as { port: number };
      const run = await dubboTs("registry", "--port", String(port));
      assert.equal(run.code, 2, run.stderr);
      const lines = run.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("listen-recorder:"));
      assert.deepEqual(lines, [
        `dubbo-ts registry: cannot listen on 127.0.0.1:${port}: the port is in use; choose another --port (0 picks a free one)`,
      ]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
