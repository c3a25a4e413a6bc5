// The repository's examples as real processes, finding each other through a registry:
// `examples/provider.ts --registry <url>` registers, `examples/consumer.ts --registry <url>`
// discovers and calls it; with a real ZooKeeper and with the embedded registry run by the CLI
// (`node bin/dubbo-ts.mjs registry --port 0`). The children get a temporary HOME, so their default
// registry cache files (~/.dubbo) stay out of the user's home.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PROVIDERS = "/dubbo/org.apache.dubbo.demo.DemoService/providers";

let zk: ZooKeeperServer;
let home: string;
const children: ChildProcess[] = [];

before(async () => {
  zk = await startZooKeeper();
  home = mkdtempSync(join(tmpdir(), "dubbo-ts-examples-home-"));
});

after(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  await zk?.stop();
  rmSync(home, { recursive: true, force: true });
});

function spawnNode(args: readonly string[]): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HOME: home },
  });
  children.push(child);
  return child;
}

/** Resolves with the first stdout line matching `pattern`; rejects on exit or after 30 s. */
function lineOf(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} printed no ${pattern} in 30 s: ${stderr}`)),
      30_000,
    );
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before printing ${pattern}: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = pattern.exec(line);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match);
    });
  });
}

/** Stops a child gracefully (SIGTERM), SIGKILL after 10 s; resolves once it has exited. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function startProvider(registry: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawnNode(["--import", "tsx", "examples/provider.ts", "--port", "0", "--registry", registry]);
  const [, port] = await lineOf(child, /^READY (\d+)$/, "the example provider");
  return { child, port: Number(port) };
}

/** Runs the example consumer to completion (SIGKILL after 30 s). */
function runConsumer(
  registry: string,
  name: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnNode([
    "--import",
    "tsx",
    "examples/consumer.ts",
    "--registry",
    registry,
    "--name",
    name,
  ]);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
  });
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("close", (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("examples through a registry (real processes)", () => {
  test("examples registry - provider and consumer find each other in ZooKeeper; a stopped provider is no longer found", async () => {
    const registry = `zookeeper://${zk.connectString}`;
    const { child, port } = await startProvider(registry);
    const inspector = new ZkClient({
      connectString: zk.connectString,
      sessionTimeoutMs: 10_000,
      operationTimeoutMs: 3000,
    });
    try {
      await inspector.connect(10_000);
      const nodes = ((await inspector.getChildren(PROVIDERS)) ?? []).map((c) => decodeURIComponent(c));
      assert.ok(
        nodes.some((n) => n.startsWith(`dubbo://127.0.0.1:${port}/`)),
        `the provider registered its port ${port}: ${nodes.join(", ")}`,
      );
      const run = await runConsumer(registry, "zk-example");
      assert.equal(run.stdout.trim(), "Hello zk-example", run.stderr);
      assert.equal(run.code, 0);

      await stop(child);
      assert.equal(child.exitCode, 0, "the provider stopped gracefully");
      assert.deepEqual(await inspector.getChildren(PROVIDERS), [], "a graceful stop unregisters at once");
      const orphan = await runConsumer(registry, "nobody");
      assert.equal(orphan.code, 1);
      assert.match(orphan.stderr, /no provider/i);
    } finally {
      inspector.close();
    }
  });

  test("examples registry - provider and consumer find each other through the embedded registry run by the CLI", async () => {
    const server = spawnNode(["bin/dubbo-ts.mjs", "registry", "--port", "0"]);
    const [, address] = await lineOf(
      server,
      /listening on (dubbo:\/\/127\.0\.0\.1:\d+)/,
      "dubbo-ts registry",
    );
    assert.ok(address);
    const { child } = await startProvider(address);
    const run = await runConsumer(address, "embedded-example");
    assert.equal(run.stdout.trim(), "Hello embedded-example", run.stderr);
    assert.equal(run.code, 0);
    await stop(child);
    await stop(server);
    assert.equal(server.exitCode, 0, "the registry stopped on SIGTERM");
  });
});
