// A real three-server ZooKeeper ensemble on loopback (the registry address with `backup=`): the
// leader killed with kill -9 under load and restarted loses no call and no node, and the client
// that was on it moves to another server; two of three stopped (no quorum) leaves calls going to
// the known providers, and every registration is back once the quorum is.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { DemoService } from "../../examples/demo-service.js";
import type { EnsembleServer, ZooKeeperEnsemble } from "../../scripts/zookeeper-ensemble.d.mts";
import { startZooKeeperEnsemble } from "../../scripts/zookeeper-ensemble.mjs";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";
import { waitFor } from "./kit.js";
import { zookeeperApps } from "./zookeeper-apps.js";

const IFACE = "org.apache.dubbo.demo.DemoService";
const PROVIDERS = `/dubbo/${IFACE}/providers`;
const CONSUMERS = `/dubbo/${IFACE}/consumers`;
/** Long enough to ride out an election, short enough that a lost quorum costs the sessions quickly. */
const SESSION_MS = 5000;
const CONSUMER = "ensemble-consumer";

let ensemble: ZooKeeperEnsemble;
let dir: string;
let inspector: ZkClient | undefined;
const apps = zookeeperApps({
  registryAddress: () => `zookeeper://${ensemble.registryAddress}`,
  get cacheDir() {
    return dir;
  },
});

before(async () => {
  ensemble = await startZooKeeperEnsemble();
  dir = mkdtempSync(join(tmpdir(), "dubbo-ts-zk-ensemble-"));
});

after(async () => {
  await apps.stopAll();
  inspector?.close();
  await ensemble?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A client of the whole ensemble, opened anew after the quorum was lost (the old one's session went). */
async function inspect(): Promise<ZkClient> {
  inspector?.close();
  inspector = new ZkClient({
    connectString: ensemble.connectString,
    sessionTimeoutMs: 20_000,
    operationTimeoutMs: 3000,
  });
  await inspector.connect(10_000);
  return inspector;
}

/** application name → session id owning its node under `path`. */
async function ownersUnder(path: string): Promise<Map<string, string>> {
  const zk = inspector ?? (await inspect());
  const owners = new Map<string, string>();
  for (const child of (await zk.getChildren(path)) ?? []) {
    const application = /application=([^&]+)/.exec(decodeURIComponent(child))?.[1] ?? "?";
    const stat = await zk.stat(`${path}/${child}`);
    if (stat !== undefined) owners.set(application, stat.ephemeralOwner);
  }
  return owners;
}

async function registered(): Promise<string> {
  const providers = [...(await ownersUnder(PROVIDERS)).keys()].sort();
  const consumers = [...(await ownersUnder(CONSUMERS)).keys()].sort();
  return `${providers.join()} / ${consumers.join()}`;
}

/** Calls in four loops until stopped; every failure is kept with its message. */
function load(demo: { sayHello(name: string): Promise<string> }) {
  let running = true;
  let calls = 0;
  const failures: string[] = [];
  const loops = Array.from({ length: 4 }, async () => {
    while (running) {
      try {
        await demo.sayHello("load");
        calls++;
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  });
  return {
    get calls() {
      return calls;
    },
    failures,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe("ZooKeeper ensemble", () => {
  let demo: { sayHello(name: string): Promise<string> };

  test("zookeeper ensemble - the leader killed (kill -9) under load and restarted: no failed call, every node kept, the client moved to another server", async () => {
    await apps.provide("first", SESSION_MS);
    await apps.provide("second", SESSION_MS);
    const consumer = await apps.application(CONSUMER, SESSION_MS);
    demo = await consumer.refer(DemoService, { timeoutMs: 1000, retries: 2 });
    await waitFor(
      "both providers and the consumer registered",
      async () => (await registered()) === "first,second / ensemble-consumer",
    );

    // Clients pick a server at random: restart the consumer's server until it sits on the leader
    // (each restart moves it to the next server of its list, so at most two are needed).
    const consumerSession = async () => (await ownersUnder(CONSUMERS)).get(CONSUMER) ?? "";
    const session = await consumerSession();
    let leader: EnsembleServer | undefined;
    let serving: EnsembleServer | undefined;
    for (let moves = 0; moves < 3; moves++) {
      leader = await ensemble.leader();
      serving = await ensemble.serverOf(session);
      if (serving === undefined || leader === undefined || serving === leader) break;
      await serving.halt();
      const left = serving;
      await waitFor("the consumer on another server", async () => {
        const now = await ensemble.serverOf(session);
        return now !== undefined && now !== left;
      });
      await left.start();
    }
    assert.ok(leader !== undefined && serving === leader, "the consumer's session is on the leader");
    const before = { providers: await ownersUnder(PROVIDERS), consumers: await ownersUnder(CONSUMERS) };

    const calls = load(demo);
    await waitFor("calls flowing", () => calls.calls > 20);
    await leader.kill();
    await waitFor("a new leader elected", async () => (await ensemble.leader()) !== undefined);
    await waitFor("the consumer's session moved to another server", async () => {
      const now = await ensemble.serverOf(session);
      return now !== undefined && now !== leader;
    });
    const afterKill = calls.calls;
    await leader.start();
    await waitFor("calls flowing after the restart", () => calls.calls > afterKill + 20);
    await calls.stop();

    assert.deepEqual(calls.failures, [], `no call failed (${calls.calls} made)`);
    assert.deepEqual(await ownersUnder(PROVIDERS), before.providers, "the providers' nodes, same sessions");
    assert.deepEqual(await ownersUnder(CONSUMERS), before.consumers, "the consumer's node, same session");
    assert.equal(await consumerSession(), session);
  });

  test("zookeeper ensemble - two of three stopped (no quorum): calls go on to the known providers; every registration is back with the quorum", async () => {
    const before = { providers: await ownersUnder(PROVIDERS), consumers: await ownersUnder(CONSUMERS) };
    const [kept, ...stopped] = ensemble.servers;
    const calls = load(demo);
    await waitFor("calls flowing", () => calls.calls > 20);
    await Promise.all(stopped.map((server) => server.halt()));
    await waitFor("the remaining server serving nothing", async () => (await kept?.mode()) === undefined);
    // Down for longer than the session timeout, so every client gives its session up (and says so).
    await waitFor(
      "every application taking its session as lost",
      () => ["first", "second", CONSUMER].every((name) => apps.tookSessionAsLost(name)),
      SESSION_MS * 3,
    );
    const duringOutage = calls.calls;
    await waitFor("calls flowing without a quorum", () => calls.calls > duringOutage + 20);
    assert.deepEqual(calls.failures, [], `no call failed while the quorum was gone (${calls.calls} made)`);

    await Promise.all(stopped.map((server) => server.start()));
    await inspect();
    await waitFor("every registration back, under new sessions", async () => {
      const providers = await ownersUnder(PROVIDERS);
      const consumers = await ownersUnder(CONSUMERS);
      return (
        ["first", "second"].every(
          (name) => providers.has(name) && providers.get(name) !== before.providers.get(name),
        ) &&
        consumers.has(CONSUMER) &&
        consumers.get(CONSUMER) !== before.consumers.get(CONSUMER)
      );
    });
    const afterQuorum = calls.calls;
    await waitFor("calls flowing with the quorum back", () => calls.calls > afterQuorum + 20);
    await calls.stop();
    assert.deepEqual(calls.failures, [], `no call failed (${calls.calls} made)`);
  });
});
