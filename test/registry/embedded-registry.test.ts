// The embedded `dubbo://` registry end to end: its server exported over our dubbo protocol,
// providers and consumers discovering each other through it, leases and server restarts.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Url } from "../../src/core/index.js";
import {
  type EmbeddedRegistryServer,
  embeddedRegistryType,
  startEmbeddedRegistry,
} from "../../src/registry/dubbo/index.js";
import { createRegistryFactories, Registries } from "../../src/registry/index.js";
import { inProcessApps, providersOf } from "./in-process-apps.js";
import { type ProviderProcess, quietLogger, spawnRegistryProvider, waitFor } from "./kit.js";

let dir: string;
const cleanups: Array<() => Promise<unknown>> = [];

before(() => {
  dir = mkdtempSync(join(tmpdir(), "dubbo-ts-embedded-"));
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

async function server(port = 0, recoveryMs = 5000): Promise<EmbeddedRegistryServer> {
  const started = await startEmbeddedRegistry({
    host: "127.0.0.1",
    port,
    recoveryMs,
    sweepMs: 100,
    logger: quietLogger,
  });
  cleanups.push(() => started.stop());
  return started;
}

let counter = 0;
function registryUrl(registry: EmbeddedRegistryServer, params: Record<string, string> = {}): Url {
  counter += 1;
  return registry.url.withParams({
    file: join(dir, `client-${counter}.cache`),
    lease: "1500",
    "watch.wait": "2000",
    "retry.period": "200",
    ...params,
  });
}

const { provide, consume } = inProcessApps(["dubbo", embeddedRegistryType], cleanups);
const providers = providersOf;

async function answersFrom(stub: { whoAmI(c: string): Promise<string> }, tries = 40): Promise<string[]> {
  const seen = new Set<string>();
  for (let i = 0; i < tries; i++) seen.add(await stub.whoAmI("c"));
  return [...seen].sort();
}

describe("embedded registry", () => {
  test("embedded registry - two providers and a consumer discover each other; calls reach both", async () => {
    const registry = await server();
    const a = await provide("alpha", registryUrl(registry));
    const { reference, stub } = await consume(registryUrl(registry));
    const b = await provide("beta", registryUrl(registry));
    await waitFor("both providers", () => providers(reference).length === 2);
    assert.deepEqual(providers(reference), [a.url.address, b.url.address].sort());
    assert.deepEqual(await answersFrom(stub), ["alpha answers c", "beta answers c"]);
    const consumers = [
      ...registry.store.lookup(
        `consumer://127.0.0.1/${a.url.path}?interface=${a.url.path}&category=consumers`,
      ),
    ];
    assert.equal(consumers.length, 1, "the consumer registered itself");

    await b.unexport();
    await waitFor("beta dropped", () => providers(reference).length === 1);
    assert.deepEqual(await answersFrom(stub, 5), ["alpha answers c"]);
    await a.unexport();
    await reference.destroy();
  });

  test("embedded registry - a killed provider's lease lapses and consumers drop it", async () => {
    const registry = await server();
    const child: ProviderProcess = await spawnRegistryProvider(
      registryUrl(registry, { "file.cache": "false" }).toFullString(),
      "doomed",
    );
    cleanups.push(() => child.kill());
    const survivor = await provide("survivor", registryUrl(registry));
    const { reference, stub } = await consume(registryUrl(registry));
    await waitFor("both providers", () => providers(reference).length === 2);
    assert.ok(providers(reference).includes(child.address));

    await child.kill();
    await waitFor("the killed provider dropped", () => !providers(reference).includes(child.address));
    assert.deepEqual(providers(reference), [survivor.url.address]);
    assert.equal(await stub.whoAmI("c"), "survivor answers c");
    await survivor.unexport();
    await reference.destroy();
  });

  test("embedded registry - the registry server restarted: calls go on meanwhile, and clients recover after", async () => {
    const first = await server();
    const port = first.port;
    const a = await provide("alpha", registryUrl(first));
    const { reference, stub } = await consume(registryUrl(first));
    assert.deepEqual(providers(reference), [a.url.address]);

    await first.stop();
    assert.equal(
      await stub.whoAmI("while down"),
      "alpha answers while down",
      "providers are kept while the registry is away",
    );

    const second = await server(port);
    await waitFor("the provider registered again", () => second.store.size >= 2, 20_000);
    const b = await provide("beta", registryUrl(second));
    await waitFor("the consumer sees the new provider", () => providers(reference).length === 2, 20_000);
    assert.deepEqual(await answersFrom(stub), ["alpha answers c", "beta answers c"]);

    await b.unexport();
    await waitFor("beta dropped after the restart", () => providers(reference).length === 1);
    await a.unexport();
    await reference.destroy();
  });

  test("embedded registry - check=true fails fast when no registry answers; check=false starts anyway", async () => {
    const gone = await server();
    const url = registryUrl(gone);
    await gone.stop();
    const registries = new Registries({
      factories: createRegistryFactories([["dubbo", embeddedRegistryType]]),
      logger: quietLogger,
    });
    cleanups.push(() => registries.destroyAll());
    await assert.rejects(registries.get(url.withParams({ timeout: "500" })), /embedded registry/);
    const lenient = await registries.get(url.withParams({ check: "false", timeout: "500" }));
    assert.equal(lenient.isAvailable(), false);
  });
});
