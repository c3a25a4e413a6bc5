// Dubbo 3's register-mode on a real ZooKeeper: `all` (the default) registers the provider per
// interface and per application, `interface` only per interface, `instance` only per application;
// the registry's setting wins over the application's. Stopping removes the instance node.
import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import { defineService, java } from "../../src/core/index.js";
import { createDubbo, type DubboApplication, silentLogger } from "../../src/index.js";
import { waitFor } from "./kit.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const Echo = defineService("org.demo.ModeEcho", { echo: { args: [java.String], returns: java.String } });
/** Served only per application, so an interface-level provider of another test cannot answer. */
const InstanceEcho = defineService("org.demo.InstanceOnlyEcho", {
  echo: { args: [java.String], returns: java.String },
});
const fixture = useZooKeeper("dubbo-ts-register-mode-");

type Mode = "all" | "interface" | "instance";

async function provider(
  name: string,
  modes: { app?: Mode; registry?: Mode } = {},
): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name, ...(modes.app === undefined ? {} : { registerMode: modes.app }) },
    env: false,
    logger: silentLogger,
    registry: {
      address: `zookeeper://${fixture.zk.connectString}`,
      file: join(fixture.dir, `${name}.cache`),
      ...(modes.registry === undefined ? {} : { registerMode: modes.registry }),
    },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
  fixture.cleanups.push(() => app.stop());
  await app.export(Echo, { echo: (s: string) => s }, { scope: "remote" });
  return app;
}

async function where(name: string): Promise<{ interface: boolean; instance: boolean }> {
  const providers = (await fixture.inspector.getChildren("/dubbo/org.demo.ModeEcho/providers")) ?? [];
  const instances = (await fixture.inspector.getChildren(`/services/${name}`)) ?? [];
  return {
    interface: providers.some((p) => decodeURIComponent(p).includes(`application=${name}&`)),
    instance: instances.length > 0,
  };
}

it("register-mode - all by default: per interface and per application; stop removes both", async () => {
  const app = await provider("mode-default");
  assert.deepEqual(await where("mode-default"), { interface: true, instance: true });
  await app.stop();
  assert.deepEqual(await where("mode-default"), { interface: false, instance: false });
});

it("register-mode - interface registers only per interface; instance only per application", async () => {
  await provider("mode-interface", { app: "interface" });
  await provider("mode-instance", { app: "instance" });
  assert.deepEqual(await where("mode-interface"), { interface: true, instance: false });
  assert.deepEqual(await where("mode-instance"), { interface: false, instance: true });
});

it("register-mode - the registry's own setting wins over the application's", async () => {
  await provider("mode-registry-wins", { app: "instance", registry: "interface" });
  assert.deepEqual(await where("mode-registry-wins"), { interface: true, instance: false });
});

it("register-mode - our consumer calls a provider registered per application only, and sees it leave", async () => {
  const provider = await createDubbo({
    application: { name: "mode-instance-served", registerMode: "instance" },
    env: false,
    logger: silentLogger,
    registry: { address: `zookeeper://${fixture.zk.connectString}`, file: join(fixture.dir, "served.cache") },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
  fixture.cleanups.push(() => provider.stop());
  await provider.export(InstanceEcho, { echo: (s: string) => `instance ${s}` }, { scope: "remote" });
  const consumer = await createDubbo({
    application: { name: "mode-instance-consumer" },
    env: false,
    logger: silentLogger,
    registry: {
      address: `zookeeper://${fixture.zk.connectString}`,
      file: join(fixture.dir, "consumer.cache"),
    },
  });
  fixture.cleanups.push(() => consumer.stop());
  const echo = await consumer.refer(InstanceEcho);
  assert.equal(await echo.echo("hi"), "instance hi");
  await provider.stop();
  await waitFor("the consumer to lose the stopped provider", async () => {
    try {
      await echo.echo("again");
      return false;
    } catch (error) {
      return /[Nn]o provider/.test(String(error));
    }
  });
});

it("register-mode - the instance node comes back under a new session after the provider's session expired", async () => {
  const app = await createDubbo({
    application: { name: "mode-expiring" },
    env: false,
    logger: silentLogger,
    registry: {
      address: `zookeeper://${fixture.zk.connectString}`,
      file: join(fixture.dir, "expiring.cache"),
      sessionMs: 2000,
    },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
  fixture.cleanups.push(() => app.stop());
  await app.export(Echo, { echo: (s: string) => s }, { scope: "remote" });
  const ownerOf = async (): Promise<string | undefined> => {
    const [node] = (await fixture.inspector.getChildren("/services/mode-expiring")) ?? [];
    return node === undefined
      ? undefined
      : (await fixture.inspector.stat(`/services/mode-expiring/${node}`))?.ephemeralOwner;
  };
  const before = await ownerOf();
  assert.ok(before, "the instance node exists");
  // Freeze this whole process past its 2 s session (the inspector's 10 s session survives).
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6000);
  await waitFor("the instance node under a new session", async () => {
    const after = await ownerOf();
    return after !== undefined && after !== before;
  });
});
