// What a provider registers in a real ZooKeeper reaches its consumers as Java 2.7.23's
// RegistryDirectory merges it: the provider's `timeout` and `retries` are what the reference uses
// when it sets none, its `weight` and `warmup` are what the balancer weighs, and an override rule
// may raise a timeout as well as lower it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { weightOf } from "../../src/cluster/loadbalance/weight.js";
import { Code, createInvocation, RpcError, silentLogger, Url } from "../../src/core/index.js";
import { createDubbo } from "../../src/index.js";
import { zookeeperRegistryType } from "../../src/registry/index.js";
import type { RegistryReference } from "../../src/registry/protocol/index.js";
import { inProcessApps } from "./in-process-apps.js";
import { DemoService, IFACE, waitFor } from "./kit.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const fixture = useZooKeeper("dubbo-ts-provider-settings-");
const { cleanups } = fixture;

/** Each test its own ZooKeeper root, so providers of one test never serve another. */
let counter = 0;
function registryUrl(): Url {
  counter += 1;
  return Url.parse(`zookeeper://${fixture.zk.connectString}`).withParams({
    group: `provider-settings-${counter}`,
    file: join(fixture.dir, `registry-${counter}.cache`),
    "retry.period": "200",
    session: "4000",
  });
}

const { provide, consume } = inProcessApps(["zookeeper", zookeeperRegistryType], cleanups);
/** The consumer sets no timeout of its own, so Dubbo's default (1000 ms) or the provider's applies. */
const NO_OWN_TIMEOUT = { timeout: undefined };

/**
 * One call through the reference's cluster with no deadline of its own, so each attempt is bounded
 * only by the timeout its provider's invoker reads (Java's per-attempt timeout).
 */
function callThrough(reference: RegistryReference) {
  return reference.invoke(
    createInvocation({
      service: IFACE,
      method: "whoAmI",
      args: ["c"],
      parameterTypes: DemoService.methods.whoAmI.args,
    }),
  );
}

/** Answers after `ms` (a provider slower than Dubbo's default timeout). */
const answerAfter = (name: string, ms: number) => (caller: string) =>
  new Promise<string>((resolve) => setTimeout(() => resolve(`${name} answers ${caller}`), ms));

/** A provider that counts its calls and answers none until `release()`. */
function silentProvider() {
  const pending: Array<() => void> = [];
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    whoAmI: () => {
      calls += 1;
      return new Promise<string>((resolve) => pending.push(() => resolve("late")));
    },
    release: () => {
      for (const answer of pending.splice(0)) answer();
    },
  };
}

/** Two providers registering `params` that count their calls and answer none until the tests end. */
async function silentProviders(registry: Url, params: Record<string, string>) {
  const providers = [silentProvider(), silentProvider()] as const;
  cleanups.push(async () => {
    for (const p of providers) p.release();
  });
  for (const [i, p] of providers.entries())
    await provide(`silent-${i}`, registry, { params, whoAmI: p.whoAmI });
  return providers;
}

describe("provider settings reach consumers through ZooKeeper", () => {
  test("provider settings - a provider's timeout=3000 lets the consumer wait for a slow answer", async () => {
    const registry = registryUrl();
    await provide("slow", registry, {
      params: { timeout: "3000", retries: "0" },
      whoAmI: answerAfter("slow", 1500),
    });
    const { reference, stub } = await consume(registry, NO_OWN_TIMEOUT);
    assert.equal(reference.url.get("timeout"), "3000", "the reference's URL has the provider's timeout");
    assert.equal(await stub.whoAmI("c"), "slow answers c");
  });

  test("provider settings - a provider's retries=0: a timed-out call is not retried on another provider", async () => {
    const registry = registryUrl();
    const [first, second] = await silentProviders(registry, { timeout: "300", retries: "0" });
    const { reference } = await consume(registry, NO_OWN_TIMEOUT);
    await waitFor("both providers known", () => reference.directories[0]!.all().length === 2);
    await assert.rejects(callThrough(reference), (e: unknown) => e instanceof RpcError);
    assert.equal(first.calls + second.calls, 1, "one attempt, no retry");
  });

  test("provider settings - a provider's cluster=failfast does not change the consumer's failover (Java 2.7.8+)", async () => {
    const registry = registryUrl();
    const [first, second] = await silentProviders(registry, { timeout: "300", cluster: "failfast" });
    const { reference } = await consume(registry, { ...NO_OWN_TIMEOUT, retries: "1" });
    await waitFor("both providers known", () => reference.directories[0]!.all().length === 2);
    assert.equal(reference.url.get("cluster"), undefined);
    await assert.rejects(callThrough(reference), (e: unknown) => e instanceof RpcError);
    assert.equal(first.calls, 1, "failover tried the first provider...");
    assert.equal(second.calls, 1, "...and then the other");
  });

  test("provider settings - a provider's weight and warmup are what the balancer weighs", async () => {
    const registry = registryUrl();
    const longAgo = String(Date.now() - 3_600_000);
    await provide("never", registry, { params: { weight: "0", timestamp: longAgo } });
    await provide("steady", registry, { params: { weight: "100", timestamp: longAgo } });
    await provide("warming", registry, { params: { weight: "100", warmup: "1000000000" } });
    const { reference, stub } = await consume(registry);
    await waitFor("three providers known", () => reference.directories[0]!.all().length === 3);
    const weights = new Map(
      reference.directories[0]!.all().map((i) => [i.url.get("remote.application"), weightOf(i, "whoAmI")]),
    );
    assert.deepEqual(Object.fromEntries(weights), { never: 0, steady: 100, warming: 1 });
    for (let i = 0; i < 20; i++) assert.notEqual(await stub.whoAmI("c"), "never answers c");
  });

  test("provider settings - an override raises the timeout above the consumer's own", async () => {
    const registry = registryUrl();
    await provide("slow", registry, { whoAmI: answerAfter("slow", 1200) });
    const { reference } = await consume(registry, { timeout: "300" });
    const call = () => callThrough(reference);
    await assert.rejects(call(), (e: unknown) => e instanceof RpcError && e.code === Code.DeadlineExceeded);

    const rule = Url.parse(`override://0.0.0.0/${IFACE}?category=configurators&dynamic=false&timeout=5000`);
    const parent = `/${registry.get("group")}/${IFACE}/configurators`;
    await fixture.inspector.mkdirp(parent);
    await fixture.inspector.create(`${parent}/${rule.encode()}`, false);
    await waitFor(
      "the rule to reach the provider's invoker",
      () => reference.directories[0]!.all()[0]?.url.get("timeout") === "5000",
    );
    assert.equal(reference.url.get("timeout"), "5000", "and the reference's own URL");
    assert.equal((await call()).value, "slow answers c");
  });

  test("provider settings - delayMs postpones serving and registering; stopping first cancels it", async () => {
    const registry = registryUrl();
    const app = await createDubbo({
      application: { name: "delayed-provider" },
      env: false,
      logger: silentLogger,
      registry: { address: registry.toString() },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    });
    cleanups.push(() => app.stop());
    const impl = { whoAmI: (caller: string) => `delayed answers ${caller}` };
    const versions = async () => {
      const path = `/${registry.get("group")}/${IFACE}/providers`;
      const nodes = (await fixture.inspector.getChildren(path)) ?? [];
      return nodes.map((n) => Url.decode(n).get("version")).sort();
    };
    const delayed = app.export(DemoService, impl, { version: "delayed", delayMs: 3000, scope: "remote" });
    const neverExported = app.export(DemoService, impl, { version: "never", delayMs: 600_000 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await app.export(DemoService, impl, { version: "prompt", scope: "remote" });
    assert.deepEqual(await versions(), ["prompt"], "the delayed exports are not registered yet");

    const [served] = (await delayed).urls;
    assert.ok(served !== undefined && served.port > 0, "the delayed export serves on a bound port");
    assert.deepEqual(await versions(), ["delayed", "prompt"]);

    await app.stop();
    const error = await neverExported;
    assert.ok(error instanceof RpcError, "stopping rejects the delayed export");
    assert.match(error.message, /stopped during its 600000 ms export delay \(delayMs\)/);
  });
});
