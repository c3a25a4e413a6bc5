import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type Cluster,
  type ClusterContext,
  createClusterInvoker,
  type LoadBalanceFactory,
  type RouterFactory,
  registerBuiltinClusters,
  registerBuiltinRouters,
} from "../../cluster/index.js";
import {
  createInvocation,
  type Exporter,
  ExtensionPoint,
  type Invoker,
  type Protocol,
  resultOf,
  silentLogger,
  Url,
} from "../../core/index.js";
import type { NotifyListener, Registry } from "../registry.js";
import { createRegistryFactories, Registries } from "../registry-factory.js";
import { categoryOf, emptyUrl, isMatch } from "../url-match.js";
import { exportWithRegistry, referWithRegistry } from "./index.js";

const SERVICE = "com.example.DemoService";
const quiet = silentLogger;

/** An in-memory registry shared by every "application" of a test, notifying full lists per category. */
function memoryRegistry(url: Url) {
  const urls = new Map<string, Url>();
  const subscribers = new Map<NotifyListener, Url>();
  const lists = (subscription: Url): Url[] => {
    const matched = [...urls.values()].filter((u) => isMatch(subscription, u));
    const categories = subscription.list("category");
    for (const category of categories.length === 0 ? ["providers"] : categories) {
      if (!matched.some((u) => categoryOf(u) === category)) matched.push(emptyUrl(subscription, category));
    }
    return matched;
  };
  const changed = () => {
    for (const [listener, subscription] of subscribers) listener(lists(subscription));
  };
  const registry: Registry = {
    url,
    register: async (u) => {
      urls.set(u.toFullString(), u);
      changed();
    },
    unregister: async (u) => {
      urls.delete(u.toFullString());
      changed();
    },
    subscribe: async (subscription, listener) => {
      subscribers.set(listener, subscription);
      listener(lists(subscription));
    },
    unsubscribe: async (_subscription, listener) => {
      subscribers.delete(listener);
    },
    lookup: async (subscription) => lists(subscription),
    isAvailable: () => true,
    destroy: async () => {},
  };
  return { registry, urls };
}

/** A protocol whose references call the exported invoker at the same address, in process. */
function loopbackProtocol(): Protocol {
  const exported = new Map<string, Invoker>();
  return {
    name: "dubbo",
    defaultPort: 20880,
    async export(invoker) {
      exported.set(invoker.url.address, invoker);
      const exporter: Exporter = {
        invoker,
        unexport: async () => {
          exported.delete(invoker.url.address);
        },
      };
      return exporter;
    },
    async refer(url) {
      return {
        url,
        invoke: async (inv) => {
          const target = exported.get(url.address);
          if (target === undefined) throw new Error(`nothing exported at ${url.address}`);
          return target.invoke(inv);
        },
        isAvailable: () => exported.has(url.address),
        destroy: async () => {},
      };
    },
    destroy: async () => {},
  };
}

function providerInvoker(address: string, name: string): Invoker {
  return {
    url: Url.parse(
      `dubbo://${address}/${SERVICE}?application=${name}&interface=${SERVICE}&methods=hello&side=provider&timestamp=1`,
    ),
    invoke: async () => resultOf(name),
    isAvailable: () => true,
    destroy: async () => {},
  };
}

function world() {
  const memories = new Map<string, ReturnType<typeof memoryRegistry>>();
  const registries = new Registries({
    factories: createRegistryFactories([
      [
        "memory",
        {
          create: async (url) => {
            const key = url.address;
            let memory = memories.get(key);
            if (memory === undefined) {
              memory = memoryRegistry(url);
              memories.set(key, memory);
            }
            return memory.registry;
          },
        },
      ],
    ]),
    logger: quiet,
  });
  const protocol = loopbackProtocol();
  const clusters = new ExtensionPoint<Cluster>("Cluster", "failover");
  const loadBalance = new ExtensionPoint<LoadBalanceFactory>("LoadBalance", "random");
  registerBuiltinClusters({ cluster: clusters, loadBalance });
  const routerFactories = new ExtensionPoint<RouterFactory>("RouterFactory");
  registerBuiltinRouters(routerFactories);
  const context: ClusterContext = { loadBalance: (n) => loadBalance.get(n), warn() {}, random: Math.random };
  const cluster = (d: Parameters<typeof createClusterInvoker>[0]) =>
    createClusterInvoker(d, context, clusters);
  const memory = (address: string) => memories.get(address) as ReturnType<typeof memoryRegistry>;
  return { registries, protocol, cluster, routerFactories, memory };
}

const consumer = (params = "") =>
  Url.parse(`consumer://10.1.1.1/${SERVICE}?application=shop&interface=${SERVICE}&side=consumer${params}`);
const call = (invoker: Invoker) =>
  invoker.invoke(createInvocation({ service: SERVICE, method: "hello" })).then((r) => r.value);

describe("registry protocol", () => {
  test("registry protocol - export registers the Java-shaped URL; unexport unregisters", async () => {
    const w = world();
    const registryUrl = Url.parse("memory://r1:1");
    const invoker = providerInvoker("10.0.0.1:20880", "alpha");
    const withLocalKeys = {
      ...invoker,
      url: invoker.url.withParams({ "bind.ip": "0.0.0.0", ".hidden": "x" }),
    };
    const exporter = await exportWithRegistry(withLocalKeys, {
      registryUrls: [registryUrl],
      protocol: w.protocol,
      registries: w.registries,
      logger: quiet,
    });
    const [registered] = [...w.memory("r1:1").urls.values()];
    assert.ok(registered);
    assert.equal(registered.get("bind.ip"), undefined, "local-only keys are not registered");
    assert.equal(registered.get(".hidden"), undefined);
    assert.equal(registered.get("application"), "alpha");
    await exporter.unexport();
    assert.equal(w.memory("r1:1").urls.size, 0);
  });

  test("registry protocol - a provider follows its override rules: weight re-registered, side=consumer ignored", async () => {
    const w = world();
    const registryUrl = Url.parse("memory://r1:1");
    const exporter = await exportWithRegistry(providerInvoker("10.0.0.1:20880", "alpha"), {
      registryUrls: [registryUrl],
      protocol: w.protocol,
      registries: w.registries,
      logger: quiet,
    });
    const registry = await w.registries.get(registryUrl);
    const rule = Url.parse(
      `override://10.0.0.1:20880/${SERVICE}?category=configurators&dynamic=false&weight=7`,
    );
    await registry.register(rule);
    await new Promise((resolve) => setImmediate(resolve));
    const providers = () => [...w.memory("r1:1").urls.values()].filter((u) => u.protocol === "dubbo");
    assert.equal(providers().length, 1, "the old registration is replaced, not duplicated");
    assert.equal(providers()[0]?.get("weight"), "7");
    assert.equal(exporter.registeredUrls()[0]?.get("weight"), "7");

    await registry.unregister(rule);
    await registry.register(rule.withParams({ side: "consumer" }));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(
      providers()[0]?.get("weight"),
      undefined,
      "a consumer-side rule does not change the provider",
    );
    await exporter.unexport();
  });

  test("registry protocol - register=false on the registry serves without registering", async () => {
    const w = world();
    await exportWithRegistry(providerInvoker("10.0.0.1:20880", "alpha"), {
      registryUrls: [Url.parse("memory://r1:1?register=false")],
      protocol: w.protocol,
      registries: w.registries,
      logger: quiet,
    });
    assert.equal(w.memory("r1:1").urls.size, 0);
  });

  test("registry protocol - refer registers the consumer and calls the discovered provider", async () => {
    const w = world();
    const registryUrls = [Url.parse("memory://r1:1")];
    await exportWithRegistry(providerInvoker("10.0.0.1:20880", "alpha"), {
      registryUrls,
      protocol: w.protocol,
      registries: w.registries,
    });
    const reference = await referWithRegistry(consumer(), { registryUrls, ...w, logger: quiet });
    assert.equal(await call(reference), "alpha");
    const consumers = [...w.memory("r1:1").urls.values()].filter((u) => u.protocol === "consumer");
    assert.equal(consumers[0]?.get("category"), "consumers");
    await reference.destroy();
    assert.equal([...w.memory("r1:1").urls.values()].filter((u) => u.protocol === "consumer").length, 0);
  });

  test("registry protocol - a service-wide mock override reaches a running reference", async () => {
    const w = world();
    const registryUrls = [Url.parse("memory://r1:1")];
    const reference = await referWithRegistry(consumer(), { registryUrls, ...w, logger: quiet });
    await assert.rejects(call(reference), /provider/i);
    const registry = await w.registries.get(registryUrls[0] as Url);
    await registry.register(
      Url.parse(`override://0.0.0.0/${SERVICE}?category=configurators&dynamic=false`).withParams({
        mock: "force:return null",
      }),
    );
    assert.equal(await call(reference), null);
    await reference.destroy();
  });

  test("registry protocol - address.wait lets the first call wait for a provider that registers later", async () => {
    const w = world();
    const registryUrls = [Url.parse("memory://r1:1")];
    const impatient = await referWithRegistry(consumer(), { registryUrls, ...w, logger: quiet });
    await assert.rejects(call(impatient), /provider/i, "address.wait=0 fails at once, as Java does");
    const patient = await referWithRegistry(consumer("&address.wait=10000"), {
      registryUrls,
      ...w,
      logger: quiet,
    });
    const pending = call(patient);
    await exportWithRegistry(providerInvoker("10.0.0.1:20880", "late"), {
      registryUrls,
      protocol: w.protocol,
      registries: w.registries,
    });
    assert.equal(await pending, "late");
    await impatient.destroy();
    await patient.destroy();
  });

  test("registry protocol - several registries: the preferred one first, else whichever has providers", async () => {
    const w = world();
    const east = Url.parse("memory://east:1");
    const west = Url.parse("memory://west:1?preferred=true");
    await exportWithRegistry(providerInvoker("10.0.0.1:20880", "east-provider"), {
      registryUrls: [east],
      protocol: w.protocol,
      registries: w.registries,
    });
    const reference = await referWithRegistry(consumer(), {
      registryUrls: [east, west],
      ...w,
      logger: quiet,
    });
    assert.equal(reference.directories.length, 2);
    assert.equal(await call(reference), "east-provider", "the preferred registry has none, so east serves");
    await exportWithRegistry(providerInvoker("10.0.0.2:20880", "west-provider"), {
      registryUrls: [west],
      protocol: w.protocol,
      registries: w.registries,
    });
    for (let i = 0; i < 5; i++) assert.equal(await call(reference), "west-provider");
    await reference.destroy();
  });
});
