// The tri protocol under the registry stack: a provider exports over tri and registers
// `tri://host:port/...`; a consumer refers through the embedded registry and through a real
// ZooKeeper, and its calls reach the provider over HTTP/2.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, defineService, java, silentLogger } from "../../src/index.js";
import { startEmbeddedRegistry } from "../../src/registry/dubbo/index.js";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";

const IFACE = "org.apache.dubbo.demo.TripleRegistryService";
const Service = defineService(IFACE, { whoAmI: { args: [java.String], returns: java.String } });

let zk: ZooKeeperServer;
let dir: string;
const cleanups: Array<() => Promise<unknown>> = [];

before(async () => {
  zk = await startZooKeeper();
  dir = mkdtempSync(join(tmpdir(), "dubbo-ts-triple-registry-"));
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await zk.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function application(name: string, registry: string, tri: boolean): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name },
    env: false,
    logger: silentLogger,
    registry: { address: registry, file: join(dir, `${name}.cache`), parameters: { "retry.period": "200" } },
    ...(tri ? { protocol: { name: "tri", host: "127.0.0.1", port: 0 } } : {}),
  });
  cleanups.push(() => app.stop());
  return app;
}

async function answersThroughRegistry(registry: string, label: string): Promise<void> {
  const provider = await application(`tri-provider-${label}`, registry, true);
  const exporter = await provider.export(
    Service,
    { whoAmI: (caller) => `tri provider answers ${caller}` },
    { scope: "remote" },
  );
  const registered = exporter.urls[0]!;
  assert.equal(registered.protocol, "tri");
  const consumer = await application(`tri-consumer-${label}`, registry, false);
  const stub = await consumer.refer(Service, { timeoutMs: 3000, check: false });
  let answer: string | undefined;
  for (let i = 0; i < 100 && answer === undefined; i++) {
    answer = await stub.whoAmI(label).catch(() => undefined);
    if (answer === undefined) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(answer, `tri provider answers ${label}`);
}

describe("tri protocol through registries", () => {
  test("tri registry - a consumer finds a tri provider through ZooKeeper and calls it over HTTP/2", async () => {
    await answersThroughRegistry(`zookeeper://${zk.connectString}`, "zookeeper");
    const inspector = new ZkClient({
      connectString: zk.connectString,
      sessionTimeoutMs: 10_000,
      operationTimeoutMs: 5000,
    });
    await inspector.connect(10_000);
    try {
      const nodes = (await inspector.getChildren(`/dubbo/${IFACE}/providers`)) ?? [];
      assert.equal(nodes.length, 1);
      assert.match(
        decodeURIComponent(nodes[0]!),
        /^tri:\/\/127\.0\.0\.1:\d+\/org\.apache\.dubbo\.demo\.TripleRegistryService\?/,
      );
    } finally {
      inspector.close();
    }
  });

  test("tri registry - a consumer finds a tri provider through the embedded registry", async () => {
    const registry = await startEmbeddedRegistry({ host: "127.0.0.1", port: 0, logger: silentLogger });
    cleanups.push(() => registry.stop());
    await answersThroughRegistry(registry.url.toString(), "embedded");
  });
});
