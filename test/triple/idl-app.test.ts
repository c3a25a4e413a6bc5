// IDL services through the application: `app.export(defineProtoService(Greeter), …)` on a tri
// protocol and `app.refer(GreeterService, …)`, over real sockets, through the embedded registry
// and a real ZooKeeper, with failover between two providers, filters on both sides, the token,
// deadlines and cancellation, and the three streaming kinds.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import type { FilterExtension } from "../../src/extension.js";
import {
  Code,
  createDubbo,
  type DubboApplication,
  RpcError,
  silentLogger,
  type Url,
} from "../../src/index.js";
import { startEmbeddedRegistry } from "../../src/registry/dubbo/index.js";
import { zookeeperProviders } from "../registry/kit.js";
import { collect, GreeterService, type GreeterState, greeterImplementation, names } from "./greeter-peers.js";

const GREETER = "dubbo.tri.test.Greeter";

let dir: string;
const apps: DubboApplication[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

before(() => {
  dir = mkdtempSync(join(tmpdir(), "dubbo-ts-idl-app-"));
});

after(async () => {
  for (const app of apps.splice(0).reverse()) await app.stop().catch(() => {});
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

interface AppOptions {
  readonly registry?: string;
  readonly tri?: boolean;
  readonly filters?: Readonly<Record<string, FilterExtension>>;
}

async function application(name: string, options: AppOptions = {}): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name },
    env: false,
    logger: silentLogger,
    ...(options.registry === undefined
      ? {}
      : {
          registry: {
            address: options.registry,
            file: join(dir, `${name}.cache`),
            parameters: { "retry.period": "200" },
          },
        }),
    ...(options.tri === true ? { protocol: { name: "tri", host: "127.0.0.1", port: 0 } } : {}),
  });
  for (const [filterName, filter] of Object.entries(options.filters ?? {}))
    app.extensions.filter.register(filterName, filter);
  apps.push(app);
  return app;
}

function newState(): GreeterState {
  return { oursEndings: [], produced: 0 };
}

/** A provider application serving Greeter over tri on a free port; its registered URL. */
async function greeterProvider(
  name: string,
  state: GreeterState,
  options: AppOptions & { readonly token?: boolean } = {},
): Promise<{ app: DubboApplication; url: Url }> {
  const app = await application(name, { ...options, tri: true });
  const exported = await app.export(GreeterService, greeterImplementation(state, name), {
    scope: "remote",
    ...(options.token === true ? { token: true } : {}),
  });
  return { app, url: exported.urls[0]! };
}

/** Waits (bounded) until `endings` holds `count` entries. */
async function endingsReach(endings: readonly string[], count: number): Promise<void> {
  for (let i = 0; i < 500 && endings.length < count; i++) await new Promise((r) => setTimeout(r, 10));
}

describe("IDL services through app.export / app.refer", () => {
  test("idl app - registered as Java registers an IDL service, called through the embedded registry, all four kinds", async () => {
    const registry = await startEmbeddedRegistry({ host: "127.0.0.1", port: 0, logger: silentLogger });
    cleanups.push(() => registry.stop());
    const address = registry.url.toString();
    const state = newState();
    const { url } = await greeterProvider("idl-provider-embedded", state, { registry: address });
    assert.equal(url.protocol, "tri");
    assert.equal(url.path, GREETER);
    assert.equal(url.get("interface"), GREETER);
    assert.equal(url.get("proxy"), "nativestub");
    assert.equal(url.get("methods"), "chat,collect,countdown,sayHello");
    assert.equal(url.get("serialization"), undefined);

    const consumer = await application("idl-consumer-embedded", { registry: address });
    const greeter = await consumer.refer(GreeterService, { timeoutMs: 3000 });
    let trailers: Record<string, unknown> = {};
    const reply = await greeter.sayHello(
      { name: "ann" },
      { metadata: { "x-caller": "app" }, onMetadata: (m) => (trailers = m) },
    );
    assert.equal(reply.message, "hello ann from app");
    assert.equal(trailers["x-served-by"], "idl-provider-embedded");

    const countdown = await collect(greeter.countdown({ name: "n", count: 3 }));
    assert.deepEqual(
      countdown.map((r) => r.index),
      [3, 2, 1],
    );
    const collected = await greeter.collect(names("a", "b", "c"));
    assert.deepEqual([collected.message, collected.index], ["a,b,c", 3]);
    const chat = await collect(greeter.chat(names("x", "y")));
    assert.deepEqual(
      chat.map((r) => r.message),
      ["re x", "re y"],
    );
  });

  test("idl app - a consumer finds the IDL provider through ZooKeeper under /dubbo/package.Service", async () => {
    const zk: ZooKeeperServer = await startZooKeeper();
    cleanups.push(() => zk.stop());
    const registry = `zookeeper://${zk.connectString}`;
    await greeterProvider("idl-provider-zk", newState(), { registry });
    const consumer = await application("idl-consumer-zk", { registry });
    const greeter = await consumer.refer(GreeterService, { timeoutMs: 3000 });
    assert.equal((await greeter.sayHello({ name: "zoe" })).message, "hello zoe from nobody");
    assert.deepEqual(
      (await collect(greeter.countdown({ name: "z", count: 2 }))).map((r) => r.index),
      [2, 1],
    );
    const providers = await zookeeperProviders(zk.connectString, GREETER);
    assert.equal(providers.length, 1);
    assert.equal(providers[0]!.protocol, "tri");
    assert.equal(providers[0]!.path, GREETER);
    assert.equal(providers[0]!.get("proxy"), "nativestub");
    const consumers = await zookeeperProviders(zk.connectString, GREETER, "consumers");
    assert.equal(consumers.length, 1);
    assert.equal(consumers[0]!.get("proxy"), "nativestub");
  });

  test("idl app - failover: with one of two providers closed, every unary call is answered by the other", async () => {
    const first = await greeterProvider("idl-failover-a", newState());
    const second = await greeterProvider("idl-failover-b", newState());
    const consumer = await application("idl-failover-consumer");
    const greeter = await consumer.refer(GreeterService, {
      url: `tri://${first.url.address};tri://${second.url.address}`,
      loadbalance: "roundrobin",
      timeoutMs: 3000,
    });
    const servedBy = new Set<unknown>();
    for (let i = 0; i < 4; i++) {
      await greeter.sayHello({ name: "f" }, { onMetadata: (m) => servedBy.add(m["x-served-by"]) });
    }
    assert.deepEqual([...servedBy].sort(), ["idl-failover-a", "idl-failover-b"]);

    await first.app.stop();
    const after = new Set<unknown>();
    for (let i = 0; i < 4; i++) {
      await greeter.sayHello({ name: "f" }, { onMetadata: (m) => after.add(m["x-served-by"]) });
    }
    assert.deepEqual([...after], ["idl-failover-b"]);
  });

  test("idl app - consumer and provider filters see the IDL call and its message; the token filter guards it", async () => {
    const seen: string[] = [];
    const recorder = (side: "consumer" | "provider"): FilterExtension => ({
      activate: { side },
      filter: (next) => async (inv) => {
        const request = inv.args[0] as { name?: string };
        seen.push(`${side} ${inv.service}/${inv.method}(${request.name ?? "stream"})`);
        return next(inv);
      },
    });
    const registry = await startEmbeddedRegistry({ host: "127.0.0.1", port: 0, logger: silentLogger });
    cleanups.push(() => registry.stop());
    const address = registry.url.toString();
    const { url } = await greeterProvider("idl-filter-provider", newState(), {
      registry: address,
      token: true,
      filters: { "record-provider": recorder("provider") },
    });
    assert.ok((url.get("token") ?? "") !== "", "the export has a token");
    const consumer = await application("idl-filter-consumer", {
      registry: address,
      filters: { "record-consumer": recorder("consumer") },
    });
    const greeter = await consumer.refer(GreeterService, { timeoutMs: 3000 });
    assert.equal((await greeter.sayHello({ name: "fil" })).message, "hello fil from nobody");
    assert.deepEqual(seen, [`consumer ${GREETER}/SayHello(fil)`, `provider ${GREETER}/SayHello(fil)`]);

    // A direct reference without the registered token is refused by the provider's token filter.
    const direct = await consumer.refer(GreeterService, { url: `tri://${url.address}`, timeoutMs: 3000 });
    await assert.rejects(
      direct.sayHello({ name: "intruder" }),
      (e: unknown) => e instanceof RpcError && e.code === Code.PermissionDenied,
    );
  });

  test("idl app - the reference's timeout is the call's deadline: DeadlineExceeded here, the handler's call ended there", async () => {
    const state = newState();
    const { url } = await greeterProvider("idl-deadline-provider", state);
    const consumer = await application("idl-deadline-consumer");
    const greeter = await consumer.refer(GreeterService, {
      url: `tri://${url.address}`,
      timeoutMs: 200,
      retries: 0,
    });
    await assert.rejects(
      greeter.sayHello({ name: "slow", delayMs: 5000 }),
      (e: unknown) => e instanceof RpcError && e.code === Code.DeadlineExceeded,
    );
    // The provider's own deadline (grpc-timeout) and the consumer's reset arrive together: either
    // ends the handler through its signal.
    await endingsReach(state.oursEndings, 1);
    assert.equal(state.oursEndings.length, 1);
    assert.match(state.oursEndings[0]!, /^(DeadlineExceeded|Canceled)$/);
    // A per-call timeout wins over the reference's.
    await assert.rejects(
      greeter.sayHello({ name: "slow", delayMs: 5000 }, { timeoutMs: 100 }),
      (e: unknown) => e instanceof RpcError && e.code === Code.DeadlineExceeded,
    );
    // Method settings take the rpc's name, as the invocation and the URL keys do.
    const perMethod = await consumer.refer(GreeterService, {
      url: `tri://${url.address}`,
      timeoutMs: 10_000,
      retries: 0,
      methods: { SayHello: { timeoutMs: 100 } },
    });
    await assert.rejects(
      perMethod.sayHello({ name: "slow", delayMs: 5000 }),
      (e: unknown) => e instanceof RpcError && e.code === Code.DeadlineExceeded,
    );
  });

  test("idl app - cancellation: an aborted signal and a broken-off stream reach the provider as CANCELLED", async () => {
    const state = newState();
    const { url } = await greeterProvider("idl-cancel-provider", state);
    const consumer = await application("idl-cancel-consumer");
    const greeter = await consumer.refer(GreeterService, { url: `tri://${url.address}`, timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = greeter.sayHello({ name: "c", delayMs: 5000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(call, (e: unknown) => e instanceof RpcError && e.code === Code.Canceled);
    await endingsReach(state.oursEndings, 1);
    assert.deepEqual(state.oursEndings, ["Canceled"]);

    for await (const reply of greeter.countdown({ name: "s", count: 1000, delayMs: 20 })) {
      assert.equal(reply.index, 1000);
      break;
    }
    await endingsReach(state.oursEndings, 2);
    assert.deepEqual(state.oursEndings, ["Canceled", "Canceled"]);
  });

  test("idl app - in-process: a reference in the exporting application calls the handlers through injvm", async () => {
    const app = await application("idl-injvm", { tri: true });
    await app.export(GreeterService, greeterImplementation(newState(), "injvm"));
    const greeter = await app.refer(GreeterService);
    assert.equal((await greeter.sayHello({ name: "local" })).message, "hello local from nobody");
    assert.deepEqual(
      (await collect(greeter.chat(names("p", "q")))).map((r) => r.message),
      ["re p", "re q"],
    );
  });
});
