import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { freePort, startZooKeeper, type ZooKeeperServer } from "../../../scripts/zookeeper.mjs";
import { consoleLogger, silentLogger, Url } from "../../core/index.js";
import { waitFor } from "../../testing/index.js";
import type { ListChange, NotifyListener, RegistryLogger } from "../registry.js";
import { ZkClient } from "./zk-client.js";
import { createZookeeperRegistry, type ZookeeperRegistry } from "./zookeeper-registry.js";

const GOLDEN_NODE =
  "dubbo%3A%2F%2F10.0.0.5%3A20880%2Forg.apache.dubbo.demo.DemoService%3Fanyhost%3Dtrue%26application%3Dnode-demo%26deprecated%3Dfalse%26dubbo%3D2.0.2%26dynamic%3Dtrue%26generic%3Dfalse%26interface%3Dorg.apache.dubbo.demo.DemoService%26methods%3DsayHello%2CsayHelloAsync%26pid%3D4242%26release%3D2.7.23%26side%3Dprovider%26timestamp%3D1700000000000";

let zk: ZooKeeperServer;
let cacheDir: string;
const registries: ZookeeperRegistry[] = [];
const inspectors: ZkClient[] = [];
const quietLogger: RegistryLogger = process.env.ZK_TEST_LOG ? consoleLogger : silentLogger;

before(async () => {
  zk = await startZooKeeper();
  cacheDir = mkdtempSync(join(tmpdir(), "dubbo-ts-zk-cache-"));
});

after(async () => {
  for (const r of registries) await r.destroy().catch(() => {});
  for (const c of inspectors) c.close();
  await zk?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

let counter = 0;
async function openRegistry(params: Record<string, string | number> = {}): Promise<ZookeeperRegistry> {
  counter += 1;
  const url = Url.parse(`zookeeper://${zk.connectString}`).withParams({
    file: join(cacheDir, `r${counter}.cache`),
    "retry.period": 200,
    ...params,
  });
  const registry = await createZookeeperRegistry(url, { logger: quietLogger });
  registries.push(registry);
  return registry;
}

async function inspector(): Promise<ZkClient> {
  const client = new ZkClient({
    connectString: zk.connectString,
    sessionTimeoutMs: 10_000,
    operationTimeoutMs: 5000,
  });
  await client.connect(10_000);
  inspectors.push(client);
  return client;
}

/** A listener that keeps every notification and the latest list per category. */
function recorder() {
  const calls: Url[][] = [];
  const latest = new Map<string, Url[]>();
  const listener: NotifyListener = (urls) => {
    calls.push([...urls]);
    const byCategory = new Map<string, Url[]>();
    for (const u of urls) {
      const c = u.string("category", "providers");
      byCategory.set(c, [...(byCategory.get(c) ?? []), u]);
    }
    for (const [c, list] of byCategory) latest.set(c, list);
  };
  const providers = (): string[] =>
    (latest.get("providers") ?? []).filter((u) => u.protocol !== "empty").map((u) => u.toFullString());
  return { calls, latest, listener, providers };
}

function provider(iface: string, port: number, extra: Record<string, string> = {}): Url {
  return Url.parse(`dubbo://127.0.0.1:${port}/${iface}`).withParams({
    interface: iface,
    side: "provider",
    application: "zk-test",
    ...extra,
  });
}

function consumer(iface: string, extra: Record<string, string> = {}): Url {
  return Url.parse(`consumer://127.0.0.1/${iface}`).withParams({
    interface: iface,
    category: "providers,configurators,routers",
    side: "consumer",
    ...extra,
  });
}

describe("zookeeper registry", () => {
  test("zookeeper registry - zk.session.expire is the session timeout ZooKeeper grants, over session=", async () => {
    const javaKey = await openRegistry({ "zk.session.expire": 7000, session: 3000 });
    assert.equal(javaKey.session.timeoutMs, 7000);
    const ours = await openRegistry({ session: 3000 });
    assert.equal(ours.session.timeoutMs, 3000);
    const tooLong = await openRegistry({ "zk.session.expire": 120_000 });
    assert.equal(tooLong.session.timeoutMs, 60_000, "the test server's maxSessionTimeout bounds it");
  });

  test("zookeeper registry - node names are byte-equal to Java's URLEncoder form", async () => {
    const registry = await openRegistry();
    const golden = Url.decode(GOLDEN_NODE);
    assert.equal(golden.encode(), GOLDEN_NODE);
    await registry.register(golden);
    const zkc = await inspector();
    const children = await zkc.getChildren("/dubbo/org.apache.dubbo.demo.DemoService/providers");
    assert.deepEqual(children, [GOLDEN_NODE]);
    // `$` in an interface name is %24 in the service path, as Java writes it.
    await registry.register(provider("com.foo.Outer$Inner", 20881));
    assert.deepEqual(
      (await zkc.getChildren("/dubbo"))?.filter((c) => c.startsWith("com.foo.Outer")),
      ["com.foo.Outer%24Inner"],
    );
    await registry.unregister(golden);
    assert.deepEqual(await zkc.getChildren("/dubbo/org.apache.dubbo.demo.DemoService/providers"), []);
  });

  test("zookeeper registry - register creates an ephemeral node owned by the session; dynamic=false is persistent", async () => {
    const registry = await openRegistry();
    const zkc = await inspector();
    const url = provider("com.test.Ephemeral", 20880);
    await registry.register(url);
    const stat = await zkc.stat(`/dubbo/com.test.Ephemeral/providers/${url.encode()}`);
    assert.equal(stat?.ephemeralOwner, registry.session.id);
    const fixed = provider("com.test.Ephemeral", 20881, { dynamic: "false" });
    await registry.register(fixed);
    const fixedStat = await zkc.stat(`/dubbo/com.test.Ephemeral/providers/${fixed.encode()}`);
    assert.equal(fixedStat?.ephemeralOwner, "0000000000000000");
    const parent = await zkc.stat("/dubbo/com.test.Ephemeral/providers");
    assert.equal(parent?.ephemeralOwner, "0000000000000000");
  });

  test("zookeeper registry - subscribe gets full lists per category, empty:// when a category empties", async () => {
    const registry = await openRegistry();
    const rec = recorder();
    const iface = "com.test.Lists";
    await registry.register(provider(iface, 20880));
    await registry.subscribe(consumer(iface), rec.listener);
    // The first lists arrive before subscribe resolves: every category, empty ones as empty://.
    assert.equal(rec.calls.length, 1);
    assert.deepEqual(rec.providers(), [provider(iface, 20880).toFullString()]);
    assert.equal(rec.latest.get("routers")?.[0]?.protocol, "empty");
    assert.equal(rec.latest.get("configurators")?.[0]?.protocol, "empty");

    await registry.register(provider(iface, 20881));
    await waitFor("two providers", () => rec.providers().length === 2);
    await registry.unregister(provider(iface, 20880));
    await registry.unregister(provider(iface, 20881));
    await waitFor("empty providers", () => rec.latest.get("providers")?.[0]?.protocol === "empty");
    const empty = rec.latest.get("providers")?.[0];
    assert.equal(empty?.get("category"), "providers");
    assert.equal(empty?.serviceInterface, iface);
  });

  test("zookeeper registry - another client's registration reaches our subscription; unsubscribe stops it", async () => {
    const consumerSide = await openRegistry();
    const providerSide = await openRegistry();
    const rec = recorder();
    const iface = "com.test.TwoClients";
    await consumerSide.subscribe(consumer(iface, { version: "1.0.0" }), rec.listener);
    await providerSide.register(provider(iface, 20880, { version: "1.0.0" }));
    await providerSide.register(provider(iface, 20881, { version: "2.0.0" }));
    await waitFor("the 1.0.0 provider", () => rec.providers().length === 1);
    assert.match(rec.providers()[0] ?? "", /:20880\//);
    assert.deepEqual(
      (await consumerSide.lookup(consumer(iface, { version: "1.0.0" }))).map((u) => u.port),
      [20880],
    );

    await consumerSide.unsubscribe(consumer(iface, { version: "1.0.0" }), rec.listener);
    const before = rec.calls.length;
    await providerSide.register(provider(iface, 20882, { version: "1.0.0" }));
    await waitFor(
      "the new node",
      async () => (await consumerSide.lookup(consumer(iface, { version: "1.0.0" }))).length === 2,
    );
    assert.equal(rec.calls.length, before);
  });

  test("zookeeper registry - a listener that takes changes hears one added or removed node as a change that ends where the full lists do", async () => {
    const consumerSide = await openRegistry();
    const providerSide = await openRegistry();
    const iface = "com.test.Changes";
    const rec = recorder();
    const changes: ListChange[] = [];
    let fullLists = 0;
    let providers: readonly Url[] = [];
    let fromFullList: readonly Url[] = [];
    const taking: NotifyListener = Object.assign(
      (urls: readonly Url[]) => {
        fullLists++;
        const listed = urls.filter((u) => u.string("category", "providers") === "providers");
        if (listed.length > 0) providers = listed.filter((u) => u.protocol !== "empty");
        fromFullList = providers;
      },
      {
        changed: (change: ListChange) => {
          changes.push(change);
          const next = [...providers];
          assert.deepEqual(next.splice(change.start, change.removed.length, ...change.added), change.removed);
          assert.deepEqual(next, change.after);
          providers = change.after;
        },
      },
    );
    // Two subscriptions: the lists a registry records are per subscription URL.
    const subscription = consumer(iface, { reference: "taking" });
    await consumerSide.subscribe(consumer(iface), rec.listener);
    await consumerSide.subscribe(subscription, taking);
    const fullOnSubscribe = fullLists;
    for (const port of [20880, 20881, 20882, 20883]) await providerSide.register(provider(iface, port));
    await waitFor("four providers", () => rec.providers().length === 4 && providers.length === 4);
    await providerSide.unregister(provider(iface, 20881));
    await waitFor("three providers", () => rec.providers().length === 3 && providers.length === 3);
    // The first provider fills an empty list (a full list, with the category's empty:// before it).
    assert.equal(fullLists, fullOnSubscribe + 1);
    // Nodes created close together may reach one read, and ZooKeeper may list children in a new
    // order after an add (a change then removes and re-adds a moved node): what the changes add
    // net of what they remove is what the full list lacked.
    assert.ok(changes.length > 0 && changes.every((c) => c.category === "providers"));
    const net = new Map<string, number>();
    const count = (urls: readonly Url[], by: number) => {
      for (const u of urls) net.set(u.toFullString(), (net.get(u.toFullString()) ?? 0) + by);
    };
    for (const change of changes) {
      count(change.added, 1);
      count(change.removed, -1);
    }
    count(providers, -1);
    count(fromFullList, 1);
    assert.deepEqual(
      [...net.values()].filter((n) => n !== 0),
      [],
    );
    assert.deepEqual(
      providers.map((u) => u.toFullString()),
      rec.providers(),
    );
    assert.deepEqual(
      (consumerSide.notified(subscription).get("providers") ?? []).map((u) => u.toFullString()),
      rec.providers(),
    );
  });

  test("zookeeper registry - Java-written node names (+, %24, default. keys) parse; non-URL children are ignored", async () => {
    const registry = await openRegistry();
    const zkc = await inspector();
    const iface = "com.foo.Outer$Inner";
    const javaNode =
      "dubbo%3A%2F%2F10.0.0.7%3A20880%2Fcom.foo.Outer%24Inner%3Fanyhost%3Dtrue%26default.group%3Dg1%26default.version%3D1.0.0%26interface%3Dcom.foo.Outer%24Inner%26module%3Ddubbogo+certify+server%26side%3Dprovider";
    await zkc.mkdirp("/dubbo/com.foo.Outer%24Inner/providers");
    await zkc.create(`/dubbo/com.foo.Outer%24Inner/providers/${javaNode}`, true);
    await zkc.create("/dubbo/com.foo.Outer%24Inner/providers/not-a-url", true);
    const rec = recorder();
    await registry.subscribe(consumer(iface, { group: "g1", version: "1.0.0" }), rec.listener);
    const [url] = rec.latest.get("providers") ?? [];
    assert.equal(rec.latest.get("providers")?.length, 1);
    assert.equal(url?.protocol, "dubbo");
    assert.equal(url?.serviceInterface, iface);
    assert.equal(url?.get("module"), "dubbogo certify server");
    assert.equal(url?.get("group"), "g1");
    assert.equal(url?.get("version"), "1.0.0");
  });

  test("zookeeper registry - a * subscription sees every service, including ones created later", async () => {
    const ops = await openRegistry({ group: "ops-root" });
    const writer = await openRegistry({ group: "ops-root" });
    await writer.register(provider("com.ops.A", 20880));
    const seen = new Set<string>();
    const listener: NotifyListener = (urls) => {
      for (const u of urls) if (u.protocol !== "empty") seen.add(u.serviceInterface);
    };
    const all = Url.parse("admin://127.0.0.1/*").withParams({
      interface: "*",
      category: "providers",
      check: "false",
    });
    await ops.subscribe(all, listener);
    assert.ok(seen.has("com.ops.A"));
    await writer.register(provider("com.ops.B", 20881));
    await waitFor("service B", () => seen.has("com.ops.B"));
    const zkc = await inspector();
    assert.ok((await zkc.getChildren("/ops-root"))?.includes("com.ops.B"));
    await ops.unsubscribe(all, listener);
    assert.equal(ops.subscribed().length, 0);
  });

  test("zookeeper registry - a * subscription drops a service deleted from the root and finds it again when re-created", async () => {
    const ops = await openRegistry({ group: "ops-gone" });
    const writer = await openRegistry({ group: "ops-gone" });
    const zkc = await inspector();
    const a = provider("com.gone.A", 20880);
    await writer.register(a);
    await writer.register(provider("com.gone.B", 20881));
    const latest = new Map<string, string[]>();
    const listener: NotifyListener = (urls) => {
      for (const u of urls) {
        if (u.string("category", "providers") !== "providers") continue;
        const live = urls.filter((x) => x.protocol !== "empty" && x.serviceInterface === u.serviceInterface);
        latest.set(
          u.serviceInterface,
          live.map((x) => x.address),
        );
      }
    };
    const all = Url.parse("admin://127.0.0.1/*").withParams({
      interface: "*",
      category: "providers",
      check: "false",
    });
    await ops.subscribe(all, listener);
    assert.deepEqual(latest.get("com.gone.A"), ["127.0.0.1:20880"]);
    assert.deepEqual(latest.get("com.gone.B"), ["127.0.0.1:20881"]);
    const subscribedTo = (service: string) =>
      ops.subscribed().some((s) => s.url.serviceInterface === service);
    assert.ok(subscribedTo("com.gone.A"));

    // An ops tool deletes the whole service tree, bottom-up as ZooKeeper requires.
    await writer.unregister(a);
    for (const category of (await zkc.getChildren("/ops-gone/com.gone.A")) ?? []) {
      await zkc.remove(`/ops-gone/com.gone.A/${category}`);
    }
    await zkc.remove("/ops-gone/com.gone.A");
    await waitFor("A's subscription ended", () => !subscribedTo("com.gone.A"));
    assert.deepEqual(latest.get("com.gone.A"), [], "A's providers were notified empty");
    assert.ok(subscribedTo("com.gone.B"), "B is untouched");

    // The provider comes back (its registry re-creates the parents it had already made once).
    await writer.register(a);
    await waitFor("A discovered again", () => latest.get("com.gone.A")?.[0] === "127.0.0.1:20880");
    assert.ok(subscribedTo("com.gone.A"));
    await ops.unsubscribe(all, listener);
    assert.equal(ops.subscribed().length, 0, "unsubscribing * ends every per-service subscription");
  });

  test("zookeeper registry - a subscription survives its category path being deleted and re-created", async () => {
    const registry = await openRegistry();
    const other = await openRegistry();
    const zkc = await inspector();
    const iface = "com.test.Recreated";
    const rec = recorder();
    await registry.subscribe(consumer(iface, { category: "providers" }), rec.listener);
    await zkc.remove(`/dubbo/${iface}/providers`);
    await other.register(provider(iface, 20880));
    await waitFor("the provider under the re-created path", () => rec.providers().length === 1);
  });

  test("zookeeper registry - a node held by another session is taken over on register (dubbo#5135)", async () => {
    const registry = await openRegistry();
    const zkc = await inspector();
    const url = provider("com.test.Stale", 20880);
    const path = `/dubbo/com.test.Stale/providers/${url.encode()}`;
    await zkc.mkdirp("/dubbo/com.test.Stale/providers");
    await zkc.create(path, true);
    assert.equal((await zkc.stat(path))?.ephemeralOwner, zkc.sessionId);
    await registry.register(url);
    assert.equal((await zkc.stat(path))?.ephemeralOwner, registry.session.id);
  });

  test("zookeeper registry - an expired session is replaced: nodes re-created, subscriptions re-armed", async () => {
    const registry = await openRegistry({ session: 2000 });
    const other = await openRegistry();
    const zkc = await inspector();
    const iface = "com.test.Expiry";
    const url = provider(iface, 20880);
    const path = `/dubbo/${iface}/providers/${url.encode()}`;
    await registry.register(url);
    const rec = recorder();
    await registry.subscribe(consumer(iface), rec.listener);
    const oldSession = registry.session;

    // Freeze the whole process past the session timeout, as a long GC pause or a stopped VM would:
    // no pings reach the server, so it expires the session.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4500);
    await waitFor("a new session", () => registry.session.id !== oldSession.id && registry.isAvailable());
    await waitFor("the node owned by the new session", async () => {
      return (await zkc.stat(path))?.ephemeralOwner === registry.session.id;
    });
    await other.register(provider(iface, 20881));
    await waitFor("the re-armed watch", () => rec.providers().length === 2);
    assert.ok(
      rec.calls.every((call) =>
        call.every((u) => !(u.protocol === "empty" && u.get("category") === "providers")),
      ),
      "the provider list never went empty",
    );
  });

  test("zookeeper registry - ZooKeeper stopped and restarted: providers kept while down, nodes and watches back after", async () => {
    const providerSide = await openRegistry({ check: "false" });
    const consumerSide = await openRegistry({ check: "false" });
    const iface = "com.test.Restart";
    await providerSide.register(provider(iface, 20880));
    const rec = recorder();
    await consumerSide.subscribe(consumer(iface), rec.listener);
    assert.equal(rec.providers().length, 1);
    const callsBefore = rec.calls.length;

    await zk.halt();
    await waitFor("the disconnect", () => !consumerSide.isAvailable());
    // Work attempted while down is kept for later, not lost.
    await providerSide.register(provider(iface, 20881));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(rec.calls.length, callsBefore, "no notification while ZooKeeper is down");
    assert.equal(rec.providers().length, 1);

    await zk.start();
    await waitFor("both providers after the restart", () => rec.providers().length === 2, 30_000);
    for (const call of rec.calls.slice(callsBefore)) {
      for (const u of call)
        assert.notEqual(u.protocol === "empty" && u.get("category") === "providers", true);
    }
    const zkc = await inspector();
    const children = await zkc.getChildren(`/dubbo/${iface}/providers`);
    assert.equal(children?.length, 2);
  });

  test("zookeeper registry - check=true fails at start when ZooKeeper is unreachable; check=false starts and keeps trying", async () => {
    const port = await freePort();
    const url = Url.parse(`zookeeper://127.0.0.1:${port}`).withParams({
      timeout: 300,
      "file.cache": "false",
    });
    await assert.rejects(
      createZookeeperRegistry(url, { logger: quietLogger }),
      /could not connect to ZooKeeper/,
    );
    const lenient = await createZookeeperRegistry(url.withParams({ check: "false" }), {
      logger: quietLogger,
    });
    assert.equal(lenient.isAvailable(), false);
    await lenient.register(provider("com.test.Down", 20880));
    assert.equal(lenient.pendingRetries().length, 1);
    await lenient.destroy();
  });
});
