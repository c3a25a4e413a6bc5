// The registry protocol against a real ZooKeeper: providers export and register over the dubbo
// protocol, consumers discover them through a registry directory, and ops rules written to
// ZooKeeper (override, condition route) reach running consumers.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Url } from "../../src/core/index.js";
import { zookeeperRegistryType } from "../../src/registry/index.js";
import { inProcessApps, providersOf } from "./in-process-apps.js";
import { IFACE, type ProviderProcess, spawnRegistryProvider, waitFor } from "./kit.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const fixture = useZooKeeper("dubbo-ts-zk-discovery-");
const { cleanups } = fixture;

let counter = 0;
function registryUrl(params: Record<string, string> = {}): Url {
  counter += 1;
  return Url.parse(`zookeeper://${fixture.zk.connectString}`).withParams({
    file: join(fixture.dir, `registry-${counter}.cache`),
    "retry.period": "200",
    session: "2000",
    ...params,
  });
}

const { provide, consume } = inProcessApps(["zookeeper", zookeeperRegistryType], cleanups);
const providers = providersOf;

async function children(path: string): Promise<string[]> {
  return ((await fixture.inspector.getChildren(path)) ?? []).map((c) => decodeURIComponent(c));
}

/** Writes an ops rule the way dubbo-admin does: a persistent node named by the encoded URL. */
async function writeRule(category: "configurators" | "routers", rule: Url): Promise<() => Promise<void>> {
  const parent = `/dubbo/${IFACE}/${category}`;
  await fixture.inspector.mkdirp(parent);
  const path = `${parent}/${rule.encode()}`;
  await fixture.inspector.create(path, false);
  return () => fixture.inspector.remove(path);
}

describe("registry protocol on ZooKeeper", () => {
  test("zookeeper discovery - a registered provider is called; provider and consumer nodes are Java-shaped", async () => {
    const registry = registryUrl();
    const exporter = await provide("alpha", registry);
    const { reference, stub } = await consume(registry);
    assert.equal(await stub.whoAmI("c1"), "alpha answers c1");

    const registered = exporter.registeredUrls()[0];
    assert.ok(registered);
    assert.equal(registered.port, exporter.url.port, "the bound port is registered");
    const providerNodes = await children(`/dubbo/${IFACE}/providers`);
    assert.ok(providerNodes.includes(registered.toFullString()));
    const node = Url.parse(providerNodes.find((n) => n === registered.toFullString()) ?? "");
    for (const key of [
      "anyhost",
      "application",
      "dubbo",
      "dynamic",
      "interface",
      "methods",
      "release",
      "side",
      "timestamp",
    ]) {
      assert.ok(node.has(key), `provider URL has ${key}`);
    }
    const consumers = (await children(`/dubbo/${IFACE}/consumers`)).map((c) => Url.parse(c));
    assert.ok(
      consumers.some(
        (c) => c.protocol === "consumer" && c.get("category") === "consumers" && c.get("check") === "false",
      ),
      "the consumer registered itself under /consumers",
    );
    await reference.destroy();
    await exporter.unexport();
    assert.deepEqual(await children(`/dubbo/${IFACE}/providers`), [], "unexport unregisters");
  });

  test("zookeeper discovery - a second provider is discovered; an unexported one is dropped", async () => {
    const registry = registryUrl();
    const a = await provide("alpha", registry);
    const { reference, stub } = await consume(registry);
    const b = await provide("beta", registry);
    await waitFor("both providers", () => providers(reference).length === 2);
    const answers = new Set<string>();
    for (let i = 0; i < 40 && answers.size < 2; i++) answers.add(await stub.whoAmI("c"));
    assert.deepEqual([...answers].sort(), ["alpha answers c", "beta answers c"]);

    await a.unexport();
    await waitFor("alpha dropped", () => providers(reference).length === 1);
    assert.deepEqual(providers(reference), [b.url.address]);
    assert.equal(await stub.whoAmI("c"), "beta answers c");
    await b.unexport();
    await waitFor("no providers", () => providers(reference).length === 0);
    await assert.rejects(stub.whoAmI("c"), /No provider|no provider/i);
  });

  test("zookeeper discovery - a killed provider process disappears from consumers when its session ends", async () => {
    const registry = registryUrl();
    const child: ProviderProcess = await spawnRegistryProvider(
      `zookeeper://${fixture.zk.connectString}?session=2000&file.cache=false`,
      "doomed",
    );
    cleanups.push(() => child.kill());
    const survivor = await provide("survivor", registry);
    const { reference, stub } = await consume(registry);
    await waitFor("both providers", () => providers(reference).length === 2);
    assert.ok(providers(reference).includes(child.address));

    await child.kill();
    await waitFor("the killed provider dropped", () => !providers(reference).includes(child.address), 30_000);
    assert.deepEqual(providers(reference), [survivor.url.address]);
    assert.equal(await stub.whoAmI("c"), "survivor answers c");
    await survivor.unexport();
  });

  test("zookeeper discovery - an override disabled=true written to ZooKeeper takes one provider out of a running consumer", async () => {
    const registry = registryUrl();
    const a = await provide("alpha", registry);
    const b = await provide("beta", registry);
    const { reference, stub } = await consume(registry);
    await waitFor("both providers", () => providers(reference).length === 2);

    const rule = Url.parse(
      `override://${b.url.address}/${IFACE}?category=configurators&dynamic=false&disabled=true&enabled=true`,
    );
    const removeRule = await writeRule("configurators", rule);
    await waitFor("beta disabled", () => providers(reference).length === 1);
    assert.equal(reference.directories[0]?.excluded().get(b.url.address)?.kind, "disabled");
    for (let i = 0; i < 10; i++) assert.equal(await stub.whoAmI("c"), "alpha answers c");
    await waitFor("the provider re-registered itself disabled", () =>
      b.registeredUrls().some((u) => u.get("disabled") === "true"),
    );

    await removeRule();
    await waitFor("beta back", () => providers(reference).length === 2);
    await waitFor("the provider registered without the rule", () =>
      b.registeredUrls().every((u) => u.get("disabled") === undefined),
    );
    await a.unexport();
    await b.unexport();
  });

  test("zookeeper discovery - a condition route written to ZooKeeper steers a running consumer", async () => {
    const registry = registryUrl();
    const a = await provide("alpha", registry);
    const b = await provide("beta", registry);
    const { reference, stub } = await consume(registry);
    await waitFor("both providers", () => providers(reference).length === 2);

    const rule = Url.parse(
      `condition://0.0.0.0/${IFACE}?category=routers&dynamic=false&force=true&rule=${encodeURIComponent(
        `=> port = ${a.url.port}`,
      )}`,
    );
    const removeRule = await writeRule("routers", rule);
    await waitFor("the route in force", async () => {
      for (let i = 0; i < 10; i++) if ((await stub.whoAmI("c")) !== "alpha answers c") return false;
      return true;
    });
    await removeRule();
    await waitFor("the route lifted", async () => {
      for (let i = 0; i < 40; i++) if ((await stub.whoAmI("c")) === "beta answers c") return true;
      return false;
    });
    await a.unexport();
    await b.unexport();
  });

  test("zookeeper discovery - a consumer started while ZooKeeper is down is served from the cache file", async () => {
    const cacheFile = join(fixture.dir, "consumer.cache");
    const registry = registryUrl({ file: cacheFile, "save.file": "true" });
    const a = await provide("alpha", registryUrl());
    const first = await consume(registry);
    assert.equal(await first.stub.whoAmI("c"), "alpha answers c");
    await first.reference.destroy();

    await fixture.zk.halt();
    try {
      const offline = registry.withParams({ check: "false", timeout: "1000" });
      const second = await consume(offline);
      assert.deepEqual(providers(second.reference), [a.url.address]);
      assert.equal(await second.stub.whoAmI("offline"), "alpha answers offline");
    } finally {
      await fixture.zk.start();
    }
    await a.unexport();
  });
});
