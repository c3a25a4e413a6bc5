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
import { after, before, describe, test } from "node:test";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";
import { type Finished, lineOf, REPO_ROOT, runToEnd, stopChild } from "../run-process.js";

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

async function startProvider(registry: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawnNode(["--import", "tsx", "examples/provider.ts", "--port", "0", "--registry", registry]);
  const [, port] = await lineOf(child, /^READY (\d+)$/, "the example provider");
  return { child, port: Number(port) };
}

/** Runs the example consumer to completion. */
function runConsumer(registry: string, name: string): Promise<Finished> {
  return runToEnd(
    process.execPath,
    ["--import", "tsx", "examples/consumer.ts", "--registry", registry, "--name", name],
    { cwd: REPO_ROOT, env: { ...process.env, HOME: home } },
  );
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

      await stopChild(child);
      assert.equal(
        child.signalCode,
        "SIGTERM",
        "the provider ends by the signal once its shutdown hook is done",
      );
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
    await stopChild(child);
    await stopChild(server);
    assert.equal(server.exitCode, 0, "the registry stopped on SIGTERM");
  });
});
