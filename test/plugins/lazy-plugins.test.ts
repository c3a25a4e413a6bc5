import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { REPO_ROOT, runToEnd } from "../run-process.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Runs a fixture program with the load recorder and returns what it printed and every module it loaded. */
async function loadsOf(program: string): Promise<{ stdout: string; loaded: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "dubbo-ts-loads-"));
  try {
    const log = join(dir, "loads.txt");
    const run = await runToEnd(
      process.execPath,
      ["--import", "tsx", "--import", fixture("record-loads.mjs"), fixture(program)],
      { cwd: REPO_ROOT, env: { ...process.env, RECORD_LOADS: log } },
    );
    assert.equal(run.code, 0, `${program} failed: ${run.stderr}`);
    return { stdout: run.stdout, loaded: readFileSync(log, "utf8").split("\n") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("plugins load on first use", () => {
  it("plugins - an application on the embedded registry loads neither node-zookeeper-client nor the zookeeper registry", async () => {
    const { stdout, loaded } = await loadsOf("embedded-app.ts");
    assert.match(stdout, /called: hello lazy/);
    assert.ok(
      loaded.some((url) => url.includes("/src/registry/dubbo/")),
      "the recorder saw the embedded registry load",
    );
    // The zookeeper plugin's own entry (its registration and brand) is light and loads; the
    // registry, its session and client, and the application-level discovery on it do not.
    const zookeeper = loaded.filter((url) =>
      /node-zookeeper-client|\/zookeeper-registry\.ts|\/zk-[a-z-]+\.ts|\/zookeeper-discovery\.ts/.test(url),
    );
    assert.deepEqual(zookeeper, []);
  });
});
