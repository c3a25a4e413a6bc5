// Applications (createDubbo) that export and refer through a real ZooKeeper stay correct through
// registry trouble: ZooKeeper stopped (calls go on from the last known providers) and restarted on
// the same port (nodes back, new providers discovered), a provider process frozen past its session
// (its node goes and comes back), and the consumer's own session expired.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { DemoService } from "../../examples/demo-service.js";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import { consoleLogger, silentLogger } from "../../src/core/index.js";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";
import { waitFor } from "./kit.js";
import { zookeeperApps } from "./zookeeper-apps.js";

const IFACE = "org.apache.dubbo.demo.DemoService";
const PROVIDERS = `/dubbo/${IFACE}/providers`;
const CONSUMERS = `/dubbo/${IFACE}/consumers`;
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const quiet = process.env.REGISTRY_TEST_LOG ? consoleLogger : silentLogger;

let zk: ZooKeeperServer;
let dir: string;
let inspector: ZkClient;
const apps = zookeeperApps({
  registryAddress: () => `zookeeper://${zk.connectString}`,
  get cacheDir() {
    return dir;
  },
  logger: () => quiet,
});
const { application } = apps;
/** A provider application whose answers start with its tag. Its session outlives every freeze here. */
const provide = (tag: string) => apps.provide(tag, 30_000);
const children: ChildProcess[] = [];

before(async () => {
  zk = await startZooKeeper();
  dir = mkdtempSync(join(tmpdir(), "dubbo-ts-zk-recovery-"));
  inspector = new ZkClient({
    connectString: zk.connectString,
    sessionTimeoutMs: 20_000,
    operationTimeoutMs: 3000,
  });
  await inspector.connect(10_000);
});

after(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, "SIGCONT");
      process.kill(child.pid, "SIGKILL");
    }
  }
  await apps.stopAll();
  inspector?.close();
  await zk?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The decoded provider (or consumer) nodes of one application, with their owning session. */
async function nodesOf(path: string, application: string): Promise<Array<{ name: string; owner: string }>> {
  const out: Array<{ name: string; owner: string }> = [];
  for (const child of (await inspector.getChildren(path)) ?? []) {
    if (!decodeURIComponent(child).includes(`application=${application}&`)) continue;
    const stat = await inspector.stat(`${path}/${child}`);
    if (stat !== undefined) out.push({ name: child, owner: stat.ephemeralOwner });
  }
  return out;
}

/** The example provider as a real process, with a 2 s session so that freezing it expires the session. */
async function spawnExampleProvider(name: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(REPO_ROOT, "examples", "provider.ts"),
      "--port",
      "0",
      "--name",
      name,
      "--registry",
      `zookeeper://${zk.connectString}`,
    ],
    {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DUBBO_REGISTRY_SESSION: "2000", DUBBO_REGISTRY_FILE_CACHE: "false" },
    },
  );
  children.push(child);
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} printed no READY in 30 s: ${stderr}`)), 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before READY: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!/^READY \d+$/.test(line)) return;
      clearTimeout(timer);
      resolve();
    });
  });
  return child;
}

describe("applications on ZooKeeper through registry outages", () => {
  let demo: { sayHello(name: string): Promise<string> };

  /** `count` calls; every one must succeed. Returns the answers. */
  async function calls(count: number, name = "c"): Promise<string[]> {
    const answers: string[] = [];
    for (let i = 0; i < count; i++) answers.push(await demo.sayHello(name));
    return answers;
  }

  test("zookeeper recovery - ZooKeeper stopped: calls go on; restarted: the provider's node is back and a new provider is discovered", async () => {
    await provide("stable");
    const consumer = await application("recovery-consumer", 2000);
    demo = await consumer.refer(DemoService, { timeoutMs: 1000, retries: 2 });
    assert.deepEqual(await calls(3), ["stable Hello c", "stable Hello c", "stable Hello c"]);
    const [stableNode] = await nodesOf(PROVIDERS, "stable");
    assert.ok(stableNode, "the stable provider registered");

    await zk.halt();
    await waitFor("ZooKeeper's clients disconnected", () => !inspector.connected);
    // Calls over 2.5 s, past the client's reconnect attempts (1 s apart): providers are never dropped.
    const downUntil = Date.now() + 2500;
    while (Date.now() < downUntil) assert.deepEqual(await calls(1, "down"), ["stable Hello down"]);

    await zk.start();
    await waitFor("the inspector back", () => inspector.connected);
    await waitFor(
      "the stable provider's node",
      async () => (await nodesOf(PROVIDERS, "stable")).length === 1,
    );
    await provide("second");
    await waitFor("the new provider answering the running consumer", async () =>
      (await calls(10)).includes("second Hello c"),
    );
    const answers = new Set(await calls(30));
    assert.ok(answers.has("stable Hello c") && answers.has("second Hello c"), [...answers].join(", "));
  });

  test("zookeeper recovery - a provider process frozen past its session: its node goes, comes back when it resumes; calls go on", async () => {
    const child = await spawnExampleProvider("frozen-provider");
    await waitFor("the consumer calling the example provider", async () =>
      (await calls(10)).includes("Hello c"),
    );
    const [before] = await nodesOf(PROVIDERS, "frozen-provider");
    assert.ok(before);

    process.kill(child.pid!, "SIGSTOP");
    try {
      await waitFor(
        "the frozen provider's session expired",
        async () => (await nodesOf(PROVIDERS, "frozen-provider")).length === 0,
      );
      await waitFor("the consumer dropped it", async () =>
        (await calls(10)).every((a) => a.startsWith("stable ") || a.startsWith("second ")),
      );
    } finally {
      process.kill(child.pid!, "SIGCONT");
    }
    await waitFor("its node recreated under a new session", async () => {
      const [after] = await nodesOf(PROVIDERS, "frozen-provider");
      return after !== undefined && after.owner !== before.owner;
    });
    await waitFor("the consumer calling it again", async () => (await calls(10)).includes("Hello c"));

    child.kill("SIGKILL");
    await waitFor(
      "the killed provider's node gone",
      async () => (await nodesOf(PROVIDERS, "frozen-provider")).length === 0,
    );
    await waitFor("the consumer dropped the killed provider", async () =>
      (await calls(10)).every((a) => !a.startsWith("Hello")),
    );
  });

  test("zookeeper recovery - the consumer's own session expired (process frozen): new session, consumer node back, calls never fail", async () => {
    const [before] = await nodesOf(CONSUMERS, "recovery-consumer");
    assert.ok(before, "the consumer registered itself");
    // Freeze this whole process past the consumer's 2 s session (the providers' 30 s sessions and
    // the inspector's 20 s survive), as a long GC pause or a suspended VM would.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4500);
    // Every call during the recovery must succeed (the provider list never empties), so the calls
    // are made here rather than inside waitFor, which would swallow a failure.
    let recovered = false;
    for (const deadline = Date.now() + 20_000; !recovered && Date.now() < deadline; ) {
      await calls(2);
      const [after] = await nodesOf(CONSUMERS, "recovery-consumer").catch(() => []);
      recovered = after !== undefined && after.owner !== before.owner;
    }
    assert.ok(recovered, "the consumer registered itself again under a new session within 20 s");
    await provide("third");
    await waitFor("a provider registered after the expiry reaching the consumer", async () =>
      (await calls(10)).includes("third Hello c"),
    );
  });
});
