import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { RouterFactory } from "../../cluster/index.js";
import { registerBuiltinRouters } from "../../cluster/index.js";
import {
  createInvocation,
  ExtensionPoint,
  type Invoker,
  type Protocol,
  silentLogger,
  Url,
} from "../../core/index.js";
import { createRecordingLogger, FakeInvoker } from "../../testing/index.js";
import type { NotifyListener, Registry } from "../registry.js";
import { emptyUrl } from "../url-match.js";
import { applyConfigurators, mergeProviderUrl, RegistryDirectory, toConfigurators } from "./index.js";

const SERVICE = "com.example.DemoService";
const CONSUMER = Url.parse(
  `consumer://10.1.1.1/${SERVICE}?application=shop&interface=${SERVICE}&side=consumer&timeout=800&dubbo=2.0.2&methods=sayHello&pid=7&timestamp=1`,
);
const quiet = silentLogger;

function provider(address: string, params = ""): Url {
  return Url.parse(
    `dubbo://${address}/${SERVICE}?anyhost=true&application=demo-provider&interface=${SERVICE}&methods=sayHello&side=provider&threads=500&timestamp=100&timeout=2000&weight=100${params}`,
  );
}

function override(target: string, params: string): Url {
  return Url.parse(`override://${target}/${SERVICE}?category=configurators&dynamic=false${params}`);
}

function condition(rule: string): Url {
  return Url.parse(
    `condition://0.0.0.0/${SERVICE}?category=routers&dynamic=false&force=true&rule=${encodeURIComponent(rule)}`,
  );
}

/** A registry whose notifications the test sends by hand. */
function fakeRegistry() {
  const listeners = new Set<NotifyListener>();
  const registry: Registry = {
    url: Url.parse("fake://127.0.0.1:1"),
    register: async () => {},
    unregister: async () => {},
    subscribe: async (_url, listener) => {
      listeners.add(listener);
    },
    unsubscribe: async (_url, listener) => {
      listeners.delete(listener);
    },
    lookup: async () => [],
    isAvailable: () => true,
    destroy: async () => {},
  };
  return {
    registry,
    listeners,
    send(...urls: Url[]) {
      for (const l of listeners) l(urls);
    },
  };
}

/** A protocol that refers FakeInvokers and records what it referred. */
function fakeProtocol() {
  const referred: FakeInvoker[] = [];
  const protocol: Protocol = {
    name: "dubbo",
    defaultPort: 20880,
    export: async () => {
      throw new Error("not used");
    },
    refer: async (url) => {
      const invoker = new FakeInvoker({ url });
      referred.push(invoker);
      return invoker;
    },
    destroy: async () => {},
  };
  return { protocol, referred };
}

async function open(logger = quiet) {
  const fake = fakeRegistry();
  const { protocol, referred } = fakeProtocol();
  const routerFactories = new ExtensionPoint<RouterFactory>("RouterFactory");
  registerBuiltinRouters(routerFactories);
  const directory = new RegistryDirectory({
    consumerUrl: CONSUMER,
    registry: fake.registry,
    protocol,
    routerFactories,
    logger,
  });
  await directory.subscribe();
  const update = async (...urls: Url[]) => {
    fake.send(...urls);
    await directory.settled();
  };
  return { directory, fake, referred, update };
}

const addresses = (invokers: readonly Invoker[]) => invokers.map((i) => i.url.address).sort();
const inv = createInvocation({ service: SERVICE, method: "sayHello", args: ["x"] });

describe("registry directory", () => {
  test("registry directory - a log line of providers names the first five each way and counts the rest", async () => {
    const logger = createRecordingLogger();
    const { directory, update } = await open(logger);
    const many = Array.from({ length: 12 }, (_, i) => provider(`10.0.0.${i + 1}:20880`));
    await update(...many);
    assert.deepEqual(logger.messages("info"), [
      `providers of ${SERVICE}: +10.0.0.1:20880, +10.0.0.2:20880, +10.0.0.3:20880, +10.0.0.4:20880, +10.0.0.5:20880, 7 more added (12 now)`,
    ]);
    await update(many[0]!, provider("10.0.0.2:20880", "&weight=5"), provider("10.0.0.99:20880"));
    assert.equal(
      logger.messages("info")[1],
      `providers of ${SERVICE}: +10.0.0.99:20880, -10.0.0.3:20880, -10.0.0.4:20880, -10.0.0.5:20880, -10.0.0.6:20880, -10.0.0.7:20880, 5 more removed (3 now)`,
      "a provider re-referred at its address (10.0.0.2, new weight) is neither added nor removed",
    );
    await directory.destroy();
  });

  test("registry directory - subscribes with providers, configurators and routers", async () => {
    const { directory, fake } = await open();
    assert.equal(fake.listeners.size, 1);
    assert.equal(directory.subscribeUrl.get("category"), "providers,configurators,routers");
    await directory.destroy();
    assert.equal(fake.listeners.size, 0, "destroy unsubscribes");
  });

  test("registry directory - with no provider of its own it looks up the near misses (other group or version)", async () => {
    const { directory, fake, update } = await open();
    const asked: Url[] = [];
    fake.registry.lookup = async (url) => {
      asked.push(url);
      return [provider("10.0.0.5:20880", "&group=blue&version=1.0.0")];
    };
    await update(emptyUrl(directory.subscribeUrl, "providers"));
    assert.deepEqual(directory.nearMisses(), [
      { address: "10.0.0.5:20880", group: "blue", version: "1.0.0" },
    ]);
    const wide = asked[0]!;
    assert.deepEqual(
      [wide.get("group"), wide.get("version"), wide.get("classifier"), wide.get("category")],
      ["*", "*", "*", "providers"],
    );
    await update(provider("10.0.0.1:20880"));
    assert.deepEqual(directory.nearMisses(), [], "a matching provider clears them");
    assert.equal(asked.length, 1, "no lookup while providers match");
    fake.registry.isAvailable = () => false;
    await update(emptyUrl(directory.subscribeUrl, "providers"));
    assert.equal(asked.length, 1, "no lookup while the registry is disconnected");
    await directory.destroy();
  });

  test("registry directory - notifications become invokers; unchanged ones are reused, removed ones destroyed", async () => {
    const { directory, referred, update } = await open();
    await update(provider("10.0.0.1:20880"), provider("10.0.0.2:20880"));
    assert.deepEqual(addresses(directory.all()), ["10.0.0.1:20880", "10.0.0.2:20880"]);
    const [first, second] = referred;
    assert.ok(first && second);

    await update(provider("10.0.0.2:20880"), provider("10.0.0.3:20880"));
    assert.deepEqual(addresses(directory.all()), ["10.0.0.2:20880", "10.0.0.3:20880"]);
    assert.equal(referred.length, 3, "only the new provider is referred");
    assert.ok(directory.all().includes(second), "the unchanged provider's invoker is reused");
    assert.equal(first.destroyed, true, "the removed provider's invoker is destroyed");
    assert.equal(second.destroyed, false);

    await directory.destroy();
    assert.ok(
      referred.every((i) => i.destroyed),
      "destroy closes every invoker",
    );
  });

  test("registry directory - empty:// clears the providers; other categories leave them alone", async () => {
    const { directory, update } = await open();
    await update(provider("10.0.0.1:20880"));
    await update(emptyUrl(directory.subscribeUrl, "routers"));
    assert.equal(directory.all().length, 1, "a notification without providers keeps them");
    await update(emptyUrl(directory.subscribeUrl, "providers"));
    assert.equal(directory.all().length, 0);
    assert.equal(directory.isAvailable(), false);
    await directory.destroy();
  });

  test("registry directory - provider settings are the consumer's defaults; thread-pool keys are not inherited", async () => {
    const { directory, update } = await open();
    await update(provider("10.0.0.1:20880", "&retries=5&loadbalance=roundrobin"));
    const url = directory.all()[0]?.url;
    assert.ok(url);
    assert.equal(url.protocol, "dubbo");
    assert.equal(url.address, "10.0.0.1:20880");
    assert.equal(url.get("timeout"), "800", "the consumer's timeout wins");
    assert.equal(url.get("retries"), "5", "the provider's retries is the default");
    assert.equal(url.get("loadbalance"), "roundrobin");
    assert.equal(url.get("threads"), undefined, "thread-pool settings stay on the provider");
    assert.equal(url.get("remote.application"), "demo-provider");
    assert.equal(url.get("application"), "shop");
    assert.equal(url.get("side"), "consumer");
    assert.equal(url.get("timestamp"), "100", "the provider's timestamp drives warmup");
    assert.equal(url.get("check"), "false");
    await directory.destroy();
  });

  test("registry directory - the reference URL takes the providers' settings it lacks (Java's addParametersIfAbsent)", async () => {
    const { directory, update } = await open();
    const seen: Url[] = [];
    directory.onUrlChange((url) => seen.push(url));
    await update(
      provider("10.0.0.1:20880", "&retries=0&mock=return+null&tag=gray&cluster=failfast"),
      provider("10.0.0.2:20880", "&retries=7&loadbalance=roundrobin"),
    );
    const url = directory.overriddenUrl;
    assert.equal(url.get("retries"), "0", "the first provider that has a key gives it");
    assert.equal(url.get("loadbalance"), "roundrobin", "a later provider fills what the first lacks");
    assert.equal(url.get("mock"), "return+null");
    assert.equal(url.get("cluster"), "failfast", "present here; the reference's cluster picks its own");
    assert.equal(url.get("timeout"), "800", "the consumer's own setting wins");
    assert.equal(url.get("tag"), undefined, "a provider's tag never becomes the reference's");
    assert.equal(url.get("threads"), undefined, "thread-pool settings stay on the provider");
    assert.equal(url.protocol, "consumer");
    assert.equal(seen.at(-1), url, "the reference hears of the change");

    await update(emptyUrl(directory.subscribeUrl, "providers"));
    assert.equal(directory.overriddenUrl.get("retries"), undefined, "no provider, no provider settings");
    await directory.destroy();
  });

  test("registry directory - an override raises a timeout above the consumer's and the provider's", async () => {
    const { directory, update } = await open();
    await update(provider("10.0.0.1:20880", "&retries=0"));
    await update(override("0.0.0.0", "&timeout=9000&providerAddresses=0.0.0.0"));
    assert.equal(directory.all()[0]?.url.get("timeout"), "9000");
    assert.equal(directory.overriddenUrl.get("timeout"), "9000");
    assert.equal(directory.overriddenUrl.get("retries"), "0", "provider settings still fill the rest");
    assert.equal(
      directory.all()[0]?.url.get("providerAddresses"),
      "0.0.0.0",
      "only Java's condition keys stay off",
    );
    await directory.destroy();
  });

  test("registry directory - an override disables one provider, and reports why", async () => {
    const { directory, referred, update } = await open();
    await update(provider("10.0.0.1:20880"), provider("10.0.0.2:20880"));
    const disabled = referred.find((i) => i.url.address === "10.0.0.2:20880");
    await update(override("10.0.0.2:20880", "&disabled=true"));
    assert.deepEqual(addresses(directory.all()), ["10.0.0.1:20880"]);
    assert.equal(disabled?.destroyed, true);
    assert.deepEqual(directory.excluded().get("10.0.0.2:20880"), {
      kind: "disabled",
      detail: "disabled by an override rule",
    });

    await update(emptyUrl(directory.subscribeUrl, "configurators"));
    assert.deepEqual(
      addresses(directory.all()),
      ["10.0.0.1:20880", "10.0.0.2:20880"],
      "empty:// lifts every override",
    );
    assert.equal(directory.excluded().size, 0);
    await directory.destroy();
  });

  test("registry directory - a service-wide override changes weight and timeout of every provider (new invokers)", async () => {
    const { directory, referred, update } = await open();
    await update(provider("10.0.0.1:20880"), provider("10.0.0.2:20880"));
    await update(override("0.0.0.0", "&weight=7&timeout=4321"));
    assert.equal(referred.length, 4, "changed URLs are referred again");
    for (const invoker of directory.all()) {
      assert.equal(invoker.url.get("weight"), "7");
      assert.equal(invoker.url.get("timeout"), "4321", "the override beats the consumer's own timeout");
    }
    assert.ok(referred.slice(0, 2).every((i) => i.destroyed));
    assert.equal(directory.overriddenUrl.get("timeout"), "4321", "the reference URL is overridden too");
    await directory.destroy();
  });

  test("registry directory - a whole-service disable keeps no provider; mock override reaches the reference URL", async () => {
    const { directory, update } = await open();
    const seen: Url[] = [];
    directory.onUrlChange((url) => seen.push(url));
    await update(provider("10.0.0.1:20880"), provider("10.0.0.2:20880"));
    await update(override("0.0.0.0", "&disabled=true"), override("0.0.0.0", "&mock=force:return null"));
    assert.equal(directory.all().length, 0);
    assert.equal(directory.excluded().size, 2);
    assert.equal(seen.at(-1)?.get("mock"), "force:return null");
    await directory.destroy();
  });

  test("registry directory - overrides honour application and side conditions", async () => {
    const { directory, update } = await open();
    await update(provider("10.0.0.1:20880"));
    await update(override("0.0.0.0", "&application=other-app&weight=1"));
    assert.equal(directory.all()[0]?.url.get("weight"), "100", "a rule for another application is ignored");
    await update(override("0.0.0.0", "&side=provider&weight=2"));
    assert.equal(
      directory.all()[0]?.url.get("weight"),
      "100",
      "a provider-side rule is not applied by consumers",
    );
    await update(override("0.0.0.0", "&application=shop&weight=3"));
    assert.equal(directory.all()[0]?.url.get("weight"), "3");
    await directory.destroy();
  });

  test("registry directory - a condition route excludes a provider from calls, and explains it", async () => {
    const { directory, update } = await open();
    await update(provider("10.0.0.1:20880"), provider("10.0.0.2:20880"));
    await update(condition("=> host != 10.0.0.2"));
    assert.deepEqual(addresses(directory.list(inv)), ["10.0.0.1:20880"]);
    assert.equal(directory.all().length, 2, "routing does not remove providers");
    assert.equal(directory.explain(inv).get("10.0.0.2:20880")?.kind, "router");
    await update(emptyUrl(directory.subscribeUrl, "routers"));
    assert.equal(directory.list(inv).length, 2, "empty:// removes the route");
    await directory.destroy();
  });

  test("registry directory - providers of another protocol are reported as a mismatch", async () => {
    const { directory, update } = await open();
    await update(
      provider("10.0.0.1:20880"),
      Url.parse(`rest://10.0.0.9:8080/${SERVICE}?interface=${SERVICE}`),
    );
    assert.deepEqual(addresses(directory.all()), ["10.0.0.1:20880"]);
    assert.equal(directory.excluded().get("10.0.0.9:8080")?.kind, "mismatch");
    await directory.destroy();
  });

  test("registry directory - a provider's arrival refers only it; every other invoker keeps its state", async () => {
    const { directory, referred, update } = await open();
    // The same Url objects every time, as the ZooKeeper registry hands them for unchanged children.
    const known = [provider("10.0.0.1:20880"), provider("10.0.0.2:20880")];
    await update(...known);
    const [first, second] = referred;
    assert.ok(first && second);
    await first.invoke(inv);
    first.inFlight = 3; // what a load balancer counts while calls are out

    await update(...known, provider("10.0.0.3:20880"));
    assert.equal(referred.length, 3, "only the newcomer is referred");
    assert.deepEqual(
      directory.all().slice(0, 2),
      [first, second],
      "the others keep their invokers, in order",
    );
    assert.equal(first.calls, 1);
    assert.equal(first.inFlight, 3);
    assert.equal(first.destroyed, false);

    await update(known[1] as Url);
    assert.deepEqual(directory.all(), [second]);
    assert.equal(first.destroyed, true, "a provider that left is destroyed");
    assert.equal(referred.at(-1)?.destroyed, true);
    await directory.destroy();
  });

  test("registry directory - a rule change keeps the invokers whose merged URL it leaves as it was", async () => {
    const { directory, referred, update } = await open();
    const known = [provider("10.0.0.1:20880"), provider("10.0.0.2:20880")];
    await update(...known);
    const [first, second] = referred;
    await update(override("10.0.0.2:20880", "&timeout=4321"));
    assert.equal(referred.length, 3, "only the provider the rule targets is referred again");
    assert.equal(directory.all()[0], first);
    assert.equal(second?.destroyed, true);
    assert.equal(directory.all()[1]?.url.get("timeout"), "4321");
    await directory.destroy();
  });

  test("registry directory - a provider whose refer failed is referred again on the next notification", async () => {
    const fake = fakeRegistry();
    let failures = 1;
    const referred: Url[] = [];
    const protocol: Protocol = {
      ...fakeProtocol().protocol,
      refer: async (url) => {
        referred.push(url);
        if (url.port === 20881 && failures-- > 0) throw new Error("refused");
        return new FakeInvoker({ url });
      },
    };
    const directory = new RegistryDirectory({
      consumerUrl: CONSUMER,
      registry: fake.registry,
      protocol,
      logger: quiet,
    });
    await directory.subscribe();
    const known = [provider("10.0.0.1:20880"), provider("10.0.0.1:20881")];
    fake.send(...known);
    await directory.settled();
    assert.deepEqual(addresses(directory.all()), ["10.0.0.1:20880"]);
    assert.deepEqual(directory.excluded().get("10.0.0.1:20881"), { kind: "unavailable" });
    fake.send(...known, provider("10.0.0.1:20882"));
    await directory.settled();
    assert.deepEqual(addresses(directory.all()), ["10.0.0.1:20880", "10.0.0.1:20881", "10.0.0.1:20882"]);
    assert.equal(referred.length, 4, "the failed one again and the newcomer, not the one that worked");
    await directory.destroy();
  });

  test("registry directory - many new providers are referred a bounded number per event-loop turn", async () => {
    const { directory, referred, fake } = await open();
    const many = Array.from({ length: 300 }, (_, i) => provider(`10.0.${i >> 8}.${i & 255}:20880`));
    let referredBeforeTheLoopRan: number | undefined;
    setImmediate(() => {
      referredBeforeTheLoopRan = referred.length;
    });
    fake.send(...many);
    await directory.settled();
    assert.equal(directory.all().length, 300);
    // An eager protocol opens a socket inside refer: all of them in one turn stalled the loop.
    assert.ok(
      referredBeforeTheLoopRan !== undefined && referredBeforeTheLoopRan < 300,
      `the event loop ran only after ${referredBeforeTheLoopRan} refers`,
    );
    await directory.destroy();
  });

  test("registry directory - waitForProviders resolves when the first provider arrives", async () => {
    const { directory, update } = await open();
    assert.equal(await directory.waitForProviders(0), false);
    const waiting = directory.waitForProviders(10_000);
    await update(provider("10.0.0.1:20880"));
    assert.equal(await waiting, true);
    await directory.destroy();
  });
});

describe("configurators", () => {
  const providerUrl = provider("10.0.0.5:20880");

  test("configurators - an override for host:port applies to that provider only", () => {
    const rules = toConfigurators([override("10.0.0.5:20880", "&weight=9")]);
    assert.equal(applyConfigurators(providerUrl, rules, "10.9.9.9").get("weight"), "9");
    const other = provider("10.0.0.6:20880");
    assert.equal(applyConfigurators(other, rules, "10.9.9.9").get("weight"), "100");
  });

  test("configurators - the specific host wins over 0.0.0.0, and condition keys are not copied", () => {
    const rules = toConfigurators([
      override("10.0.0.5:20880", "&weight=9"),
      override("0.0.0.0", "&weight=1&timeout=5"),
    ]);
    const configured = applyConfigurators(providerUrl, rules, "10.9.9.9");
    assert.equal(configured.get("weight"), "9");
    assert.equal(configured.get("timeout"), "5");
    assert.equal(configured.get("category"), undefined);
    assert.equal(configured.get("dynamic"), undefined);
  });

  test("configurators - absent:// sets only missing keys; a rule with only anyhost clears earlier ones", () => {
    const absent = Url.parse(`absent://0.0.0.0/${SERVICE}?category=configurators&timeout=1&retries=4`);
    const configured = applyConfigurators(providerUrl, toConfigurators([absent]), "h");
    assert.equal(configured.get("timeout"), "2000");
    assert.equal(configured.get("retries"), "4");
    const cleared = toConfigurators([
      override("0.0.0.0", "&weight=1"),
      Url.parse(`override://0.0.0.0/${SERVICE}?anyhost=true`),
    ]);
    assert.equal(cleared.length, 0);
  });

  test("configurators - a consumer-targeted rule applies only on that consumer host", () => {
    const merged = mergeProviderUrl(providerUrl, CONSUMER);
    const rules = toConfigurators([override("10.1.1.1", "&timeout=77")]);
    assert.equal(applyConfigurators(merged, rules, "10.1.1.1").get("timeout"), "77");
    assert.equal(applyConfigurators(merged, rules, "10.1.1.2").get("timeout"), "800");
    assert.equal(
      applyConfigurators(providerUrl, rules, "10.0.0.5").get("timeout"),
      "2000",
      "providers ignore it",
    );
  });
});

describe("merged provider URL", () => {
  test("merged provider URL - reads the merge rules through both URLs; iterating lists the same keys", () => {
    const consumer = Url.parse(
      `consumer://10.1.1.1/${SERVICE}?application=shop&group=a&version=1&timeout=800&release=3.3.6&default.tag=blue&reference.filter=trace&remote.application=self`,
    );
    const providerUrl = Url.parse(
      `dubbo://10.0.0.5:20880/${SERVICE}?application=demo&group=b&default.threads=9&threads=500&queues=0&reference.filter=auth&timeout=2000&weight=100&release=2.7.23`,
    );
    const merged = mergeProviderUrl(providerUrl, consumer);
    const expected = {
      application: "shop",
      group: "b", // the provider's identity wins
      version: "1", // the provider has none
      timeout: "800",
      release: "2.7.23", // the consumer's release describes the consumer
      "default.tag": "blue",
      tag: "blue", // mirrored from the consumer's default.tag, as the Url constructor does
      "reference.filter": "auth,trace",
      "remote.application": "demo",
      weight: "100",
    };
    assert.deepEqual(Object.fromEntries(merged.params), expected);
    for (const [key, value] of Object.entries(expected)) assert.equal(merged.get(key), value, key);
    for (const key of ["threads", "default.threads", "queues", "missing"]) {
      assert.equal(merged.has(key), false, key);
    }
    assert.equal(merged.params.size, Object.keys(expected).length);
    assert.equal(
      merged.toString(),
      `dubbo://10.0.0.5:20880/${SERVICE}?${Object.keys(expected)
        .sort()
        .map((k) => `${k}=${expected[k as keyof typeof expected]}`)
        .join("&")}`,
    );
    assert.equal(merged.withParams({ weight: "5" }).get("weight"), "5", "a derived URL is a plain copy");
  });
});
