import assert from "node:assert/strict";
import { test } from "node:test";
import { Url } from "../core/index.js";
import type { Registry } from "./registry.js";
import { createRegistryFactories, Registries, type RegistryFactory } from "./registry-factory.js";

function fakeFactory(created: Url[], destroyed: Url[]): RegistryFactory {
  return async (url) => {
    created.push(url);
    const registry: Registry = {
      url,
      register: async () => {},
      unregister: async () => {},
      subscribe: async () => {},
      unsubscribe: async () => {},
      lookup: async () => [],
      isAvailable: () => true,
      destroy: async () => {
        destroyed.push(url);
      },
    };
    return registry;
  };
}

test("registry factory - same address and parameters share one instance; destroyAll releases all", async () => {
  const created: Url[] = [];
  const destroyed: Url[] = [];
  const registries = new Registries({
    factories: createRegistryFactories([["fake", { create: fakeFactory(created, destroyed) }]]),
  });
  const a = Url.parse("fake://127.0.0.1:2181?session=1000");
  const [r1, r2] = await Promise.all([registries.get(a), registries.get(a.withParams({ timestamp: 5 }))]);
  assert.equal(r1, r2);
  const r3 = await registries.get(a.withParams({ session: 2000 }));
  assert.notEqual(r1, r3);
  const r4 = await registries.get(Url.parse("registry://127.0.0.1:2181?registry=fake&session=1000"));
  assert.equal(r4, r1, "registry://…?registry=fake is the same registry");
  assert.equal(created.length, 2);
  await registries.destroyAll();
  assert.equal(destroyed.length, 2);
  await assert.rejects(registries.get(a), /destroyed/);
});

test("registry factory - an unknown protocol fails listing the registered ones", async () => {
  const registries = new Registries({
    factories: createRegistryFactories([["fake", { create: fakeFactory([], []) }]]),
  });
  await assert.rejects(registries.get(Url.parse("etcd://127.0.0.1:2379")), /no registry named "etcd".*fake/);
});
