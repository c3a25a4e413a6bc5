// A provider process configured as a Java team configures Dubbo: a Spring Boot style dubbo.yaml
// plus the container's environment (Java's DUBBO_IP_TO_REGISTRY / DUBBO_PORT_TO_REGISTRY, a
// per-interface DUBBO_SERVICE_* setting, and the DUBBO_REGISTRY_* variables Kubernetes injects for
// a Service named dubbo-registry). What it registers in a real ZooKeeper is what Java consumers see.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { DemoService } from "../../examples/demo-service.js";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import type { Url } from "../../src/core/index.js";
import { createDubbo } from "../../src/index.js";
import { waitFor, zookeeperProviders } from "./kit.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/yaml-provider.ts", import.meta.url));

let zk: ZooKeeperServer;
let dir: string;
let child: ChildProcess | undefined;

before(async () => {
  zk = await startZooKeeper();
  dir = await mkdtemp(join(tmpdir(), "dubbo-ts-java-yaml-"));
});

after(async () => {
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    process.kill(child.pid, "SIGKILL");
  }
  await zk?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Spawns the fixture; resolves with the bound port it prints and everything it wrote to stderr so far. */
function startProvider(
  configFile: string,
  env: Record<string, string>,
): Promise<{ port: number; stderr: () => string }> {
  const spawned = spawn(process.execPath, ["--import", "tsx", FIXTURE, configFile], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  child = spawned;
  let stderr = "";
  spawned.stderr?.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no READY in 30 s: ${stderr}`)), 30_000);
    spawned.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the provider exited with ${code}: ${stderr}`));
    });
    createInterface({ input: spawned.stdout! }).on("line", (line) => {
      const match = /^READY (\d+)$/.exec(line);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ port: Number(match[1]), stderr: () => stderr });
    });
  });
}

describe("a provider configured by a Java team's dubbo.yaml and its container's environment", () => {
  test("java yaml provider - registers the reachable address with the file's and the environment's settings", async () => {
    const home = join(dir, "home");
    const configFile = join(dir, "application.yml");
    await writeFile(
      configFile,
      [
        "spring:",
        "  application:",
        "    name: demo-provider",
        "dubbo:",
        "  application:",
        "    name: demo-provider",
        "    qos-enable: false",
        "    logger: slf4j",
        "  scan:",
        "    base-packages: org.apache.dubbo.demo.provider",
        "  registry:",
        `    address: zookeeper://${zk.connectString}`,
        `    file: ${join(dir, "registry.cache")}`,
        "  protocol:",
        "    name: dubbo",
        "    host: 127.0.0.1",
        "    port: -1",
        "  provider:",
        "    timeout: 3000",
        "  service:",
        "    org.apache.dubbo.demo.DemoService:",
        "      version: 1.0.0",
      ].join("\n"),
    );
    const { port, stderr } = await startProvider(configFile, {
      HOME: home,
      DUBBO_IP_TO_REGISTRY: "192.0.2.10",
      DUBBO_PORT_TO_REGISTRY: "30123",
      DUBBO_SERVICE_ORG_APACHE_DUBBO_DEMO_DEMOSERVICE_RETRIES: "4",
      DUBBO_REGISTRY_SERVICE_HOST: "10.96.0.12",
      DUBBO_REGISTRY_PORT: "tcp://10.96.0.12:2181",
    });
    let registered: Url[] = [];
    await waitFor("the provider's node", async () => {
      registered = await zookeeperProviders(zk.connectString, DemoService.interfaceName);
      return registered.length === 1;
    });
    const url = registered[0]!;
    assert.equal(url.address, "192.0.2.10:30123", "DUBBO_IP_TO_REGISTRY and DUBBO_PORT_TO_REGISTRY");
    assert.equal(url.get("application"), "demo-provider");
    assert.equal(url.get("version"), "1.0.0", "dubbo.service.{interface}.version from the file");
    assert.equal(url.get("timeout"), "3000", "dubbo.provider.timeout from the file");
    assert.equal(url.get("retries"), "4", "DUBBO_SERVICE_{INTERFACE}_RETRIES from the environment");
    assert.equal(url.has("bind.ip") || url.has("bind.port"), false, "where it binds stays local");

    // It binds where the file says (127.0.0.1, a free port), not the registered address.
    await using consumer = await createDubbo({ application: { name: "check" }, env: false });
    const demo = await consumer.refer(DemoService, { url: `dubbo://127.0.0.1:${port}`, version: "1.0.0" });
    assert.equal(await demo.sayHello("container"), "Hello container");

    const warnings = stderr();
    for (const ignored of [
      "dubbo.application.logger",
      "dubbo.scan",
      "DUBBO_REGISTRY_SERVICE_HOST",
      "DUBBO_REGISTRY_PORT",
    ]) {
      assert.equal(warnings.split(`${ignored}`).length - 1, 1, `${ignored} warned once: ${warnings}`);
    }
    assert.equal(existsSync(join(home, ".dubbo")), false, "the cache went where the file says");
    // Saves are coalesced off the notify path (as Java's async save), so the file follows shortly.
    await waitFor("the registry cache file where the file says", async () =>
      (await readdir(dir)).includes("registry.cache"),
    );
  });
});
