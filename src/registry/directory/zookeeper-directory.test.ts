import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startZooKeeper, type ZooKeeperServer } from "../../../scripts/zookeeper.mjs";
import { createInvocation, type Protocol, silentLogger, Url } from "../../core/index.js";
import { FakeInvoker, waitFor } from "../../testing/index.js";
import { createZookeeperRegistry, type ZookeeperRegistry } from "../zookeeper/zookeeper-registry.js";
import { RegistryDirectory } from "./index.js";

// A directory over a real ZooKeeper: a change of one child among many reaches the directory as
// that child alone; the others arrive as the same Url objects and keep their invokers.
const SERVICE = "com.test.IncrementalDirectory";
let zk: ZooKeeperServer;
const registries: ZookeeperRegistry[] = [];

before(async () => {
  zk = await startZooKeeper();
});

after(async () => {
  for (const registry of registries) await registry.destroy().catch(() => {});
  await zk?.stop();
});

async function openRegistry(): Promise<ZookeeperRegistry> {
  const url = Url.parse(`zookeeper://${zk.connectString}?file.cache=false&retry.period=200`);
  const registry = await createZookeeperRegistry(url, { logger: silentLogger });
  registries.push(registry);
  return registry;
}

function providerUrl(port: number): Url {
  return Url.parse(
    `dubbo://127.0.0.1:${port}/${SERVICE}?interface=${SERVICE}&application=zk-provider&side=provider&weight=100`,
  );
}

describe("directory over zookeeper", () => {
  test("directory over zookeeper - one provider's arrival is parsed and referred alone; the others keep their invokers", async () => {
    const providerSide = await openRegistry();
    const consumerSide = await openRegistry();
    for (const port of [20880, 20881, 20882]) await providerSide.register(providerUrl(port));
    const referred: FakeInvoker[] = [];
    const protocol: Protocol = {
      name: "dubbo",
      defaultPort: 20880,
      export: () => Promise.reject(new Error("not used")),
      refer: async (url) => {
        const invoker = new FakeInvoker({ url });
        referred.push(invoker);
        return invoker;
      },
      destroy: async () => {},
    };
    const consumerUrl = Url.parse(
      `consumer://127.0.0.1/${SERVICE}?interface=${SERVICE}&application=zk-consumer&side=consumer&check=false`,
    );
    const directory = new RegistryDirectory({
      consumerUrl,
      registry: consumerSide,
      protocol,
      logger: silentLogger,
    });
    // A second listener on the same subscription sees what the registry hands the directory.
    const notified: Url[][] = [];
    await consumerSide.subscribe(directory.subscribeUrl, (urls) => notified.push([...urls]));
    await directory.subscribe();
    await waitFor("three providers", () => directory.all().length === 3);
    const before = [...directory.all()];
    const providersBefore = notified.at(-1)?.filter((u) => u.protocol === "dubbo") ?? [];
    const first = referred[0] as FakeInvoker;
    await first.invoke(createInvocation({ service: SERVICE, method: "x", args: [] }));
    first.inFlight = 2;

    await providerSide.register(providerUrl(20883));
    await waitFor("the fourth provider", () => directory.all().length === 4);
    const providersAfter = notified.at(-1)?.filter((u) => u.protocol === "dubbo") ?? [];
    assert.equal(providersAfter.length, 4);
    const unchanged = providersAfter.filter((u) => providersBefore.includes(u));
    assert.equal(unchanged.length, 3, "the three unchanged children arrive as the Url objects parsed before");
    assert.equal(referred.length, 4, "only the newcomer is referred");
    assert.deepEqual(
      directory.all().filter((i) => before.includes(i)),
      before,
      "the unchanged providers keep their invokers",
    );
    assert.equal(first.inFlight, 2);
    assert.equal(first.calls, 1);
    assert.equal(first.destroyed, false);
    await directory.destroy();
  });
});
