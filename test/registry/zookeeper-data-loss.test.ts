// ZooKeeper restarted on the same port with its data lost (a rebuilt server, a restored snapshot):
// the server refuses every old session whose last-seen zxid is ahead of its own, so clients that
// only retry their session never come back. Ours take a connection that stays down for the session
// timeout as an expiry (as Curator does), open a new session, register and subscribe again.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DemoService } from "../../examples/demo-service.js";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";
import { waitFor } from "./kit.js";
import { zookeeperApps } from "./zookeeper-apps.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const IFACE = "org.apache.dubbo.demo.DemoService";
const PROVIDERS = `/dubbo/${IFACE}/providers`;
const CONSUMERS = `/dubbo/${IFACE}/consumers`;
/** Short sessions keep the test quick; the reset waits one session timeout. */
const SESSION_MS = 2000;
const DATA_MARKER = "/dubbo-ts-data-loss-marker";

const fixture = useZooKeeper("dubbo-ts-zk-data-loss-");
const apps = zookeeperApps({
  registryAddress: () => `zookeeper://${fixture.zk.connectString}`,
  get cacheDir() {
    return fixture.dir;
  },
});
const provide = (tag: string) => apps.provide(tag, SESSION_MS);
const inspectors: ZkClient[] = [];
fixture.cleanups.push(async () => {
  await apps.stopAll();
  for (const inspector of inspectors) inspector.close();
});

/** A fresh client of the server as it is now (an old one would be refused like the others). */
async function inspect(): Promise<ZkClient> {
  const inspector = new ZkClient({
    connectString: fixture.zk.connectString,
    sessionTimeoutMs: 10_000,
    operationTimeoutMs: 3000,
  });
  inspectors.push(inspector);
  await inspector.connect(10_000);
  return inspector;
}

async function applicationsUnder(inspector: ZkClient, path: string): Promise<string[]> {
  const children = (await inspector.getChildren(path)) ?? [];
  return children.map((child) => /application=([^&]+)/.exec(decodeURIComponent(child))?.[1] ?? "?").sort();
}

test("zookeeper data loss - restarted on the same port without its data: providers and consumer register again, a new provider is discovered", async () => {
  await provide("first");
  await provide("second");
  const consumer = await apps.application("data-loss-consumer", SESSION_MS);
  const demo = await consumer.refer(DemoService, { timeoutMs: 1000, retries: 2 });
  await waitFor("the consumer calling both providers", async () => {
    const answers = new Set<string>();
    for (let i = 0; i < 20; i++) answers.add(await demo.sayHello("c"));
    return answers.has("first Hello c") && answers.has("second Hello c");
  });
  const before = await inspect();
  assert.deepEqual(await applicationsUnder(before, PROVIDERS), ["first", "second"]);
  // A persistent node no client re-creates: its absence after the restart proves the data is gone
  // (the providers' own nodes may already be back by the time we look).
  await before.mkdirp(DATA_MARKER);
  before.close();

  await fixture.zk.halt();
  fixture.zk.wipeData();
  await fixture.zk.start();

  const inspector = await inspect();
  assert.equal(await inspector.exists(DATA_MARKER), false, "the server really lost its data");
  await waitFor(
    "both providers registered again",
    async () => (await applicationsUnder(inspector, PROVIDERS)).join() === "first,second",
  );
  await waitFor(
    "the consumer registered again",
    async () => (await applicationsUnder(inspector, CONSUMERS)).join() === "data-loss-consumer",
  );
  for (const name of ["first", "second", "data-loss-consumer"]) {
    assert.ok(
      apps.tookSessionAsLost(name),
      `${name} logged why it opened a new session: ${apps.warnings.join(" | ")}`,
    );
  }

  await provide("third");
  await waitFor("the running consumer calling the provider started after the data loss", async () => {
    for (let i = 0; i < 20; i++) if ((await demo.sayHello("c")) === "third Hello c") return true;
    return false;
  });
});
