// End to end over the dubbo protocol on loopback: the cluster behaves as Java Dubbo 2.7.23's.
// A provider that does not serve the service answers SERVICE_NOT_FOUND (status 60); Java's
// failover retries that on another provider, and a registered mock implementation answers when
// no provider can (never after a business exception).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { silentLogger } from "../../src/core/index.js";
import {
  BizError,
  Code,
  createDubbo,
  type DubboApplication,
  defineService,
  java,
  RpcError,
  Url,
} from "../../src/index.js";
import { startEmbeddedRegistry } from "../../src/registry/dubbo/index.js";
import { ClusterService } from "./fixtures/cluster-service.js";

const quiet = silentLogger;

/** Another contract: a provider exporting only this answers status 60 for ClusterService. */
const OtherService = defineService("demo.OtherService", {
  ping: { args: [], returns: java.String },
});

const apps: DubboApplication[] = [];
let serving = 0;
let notServing = 0;

async function provider(name: string): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    env: false,
    logger: quiet,
  });
  apps.push(app);
  return app;
}

async function consumer(name: string): Promise<DubboApplication> {
  const app = await createDubbo({ application: { name }, env: false, logger: quiet });
  apps.push(app);
  return app;
}

before(async () => {
  const a = await provider("serving");
  const exported = await a.export(
    ClusterService,
    {
      whoami: () => "serving",
      whoamiToo: () => {
        throw new BizError("no such user", { javaClass: "com.example.NoUserException" });
      },
    },
    { scope: "remote" },
  );
  serving = exported.urls[0]!.port;
  const b = await provider("not-serving");
  notServing = (await b.export(OtherService, { ping: () => "pong" }, { scope: "remote" })).urls[0]!.port;
});
after(async () => {
  for (const app of apps.reverse()) await app.stop();
});

describe("cluster semantics of Java Dubbo 2.7.23 over real sockets", () => {
  it("failover - a provider answering SERVICE_NOT_FOUND (60) is retried on another provider", async () => {
    const app = await consumer("failover-60");
    const stub = await app.refer(ClusterService, {
      url: `dubbo://127.0.0.1:${notServing};dubbo://127.0.0.1:${serving}`,
      loadbalance: "roundrobin",
      retries: 2,
    });
    // Round robin sends every other first attempt to the provider that does not serve the service.
    for (let i = 0; i < 6; i++) assert.equal(await stub.whoami(`call ${i}`), "serving");
    // Without retries the status-60 answer reaches the caller, naming the provider that gave it.
    const once = await app.refer(ClusterService, {
      url: `dubbo://127.0.0.1:${notServing}`,
      retries: 0,
    });
    await assert.rejects(once.whoami("x"), (e: unknown) => {
      assert.ok(e instanceof RpcError, String(e));
      assert.equal(e.code, Code.Unimplemented);
      assert.match(e.message, /demo\.ClusterService/);
      return true;
    });
  });

  it("failover - a business exception is never retried", async () => {
    const app = await consumer("failover-biz");
    const stub = await app.refer(ClusterService, {
      url: `dubbo://127.0.0.1:${serving}`,
      retries: 2,
    });
    await assert.rejects(
      stub.whoamiToo("x"),
      (e: unknown) => e instanceof BizError && e.javaClass === "com.example.NoUserException",
    );
    const provider = Url.parse(`dubbo://127.0.0.1:${serving}/${ClusterService.interfaceName}`);
    assert.equal(app.extensions.rpcStatus.of(provider, "whoamiToo").total, 1, "one call, no retry");
  });

  it("mock - mock: true calls the registered <Interface>Mock after an RPC failure, not after a business error", async () => {
    const app = await consumer("mock-default");
    app.registerMock(ClusterService, {
      whoami: (caller) => `mocked for ${caller}`,
      whoamiToo: () => "mocked too",
    });
    const down = await app.refer(ClusterService, {
      url: `dubbo://127.0.0.1:${notServing}`,
      retries: 1,
      mock: "true",
    });
    assert.equal(await down.whoami("ann"), "mocked for ann");
    const live = await app.refer(ClusterService, { url: `dubbo://127.0.0.1:${serving}`, mock: "true" });
    assert.equal(await live.whoami("ann"), "serving", "a live provider's answer wins");
    await assert.rejects(live.whoamiToo("ann"), BizError, "a business exception is the provider's answer");
  });

  it("mock - mock: <name> calls that registered implementation; a reference's own mock wins", async () => {
    const app = await consumer("mock-named");
    app.registerMock(
      ClusterService,
      { whoami: () => "degraded", whoamiToo: () => "degraded too" },
      { name: "degraded" },
    );
    const named = await app.refer(ClusterService, {
      url: `dubbo://127.0.0.1:${notServing}`,
      mock: "fail:degraded",
    });
    assert.equal(await named.whoami("x"), "degraded");
    const own = await app.refer(ClusterService, {
      url: `dubbo://127.0.0.1:${notServing}`,
      mock: "force:true",
      mockImplementation: { whoami: () => "own mock", whoamiToo: () => "own mock too" },
    });
    assert.equal(await own.whoamiToo("x"), "own mock too");
    // Java's checkMock: a reference whose mock names no registered implementation fails at refer.
    await assert.rejects(
      app.refer(ClusterService, { url: `dubbo://127.0.0.1:${notServing}`, mock: "missing" }),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.InvalidArgument &&
        /mock implementation "missing" of demo\.ClusterService .*registerMock/.test(e.message),
    );
  });

  it("no provider - the error lists the same interface's providers in another group or version", async () => {
    const registry = await startEmbeddedRegistry({ host: "127.0.0.1", port: 0, logger: quiet });
    const local: DubboApplication[] = [];
    try {
      const address = registry.url.toString();
      const blue = await createDubbo({
        application: { name: "blue-provider" },
        protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
        registry: { address, useFileCache: false },
        env: false,
        logger: quiet,
      });
      local.push(blue);
      const answer = () => "blue";
      const port = (
        await blue.export(
          ClusterService,
          { whoami: answer, whoamiToo: answer },
          { group: "blue", version: "1.0.0" },
        )
      ).urls[0]!.port;
      const app = await createDubbo({
        application: { name: "green-consumer" },
        registry: { address, useFileCache: false },
        env: false,
        logger: quiet,
      });
      local.push(app);
      const stub = await app.refer(ClusterService, { group: "green", version: "1.0.0", check: false });
      await assert.rejects(stub.whoami("x"), (e: unknown) => {
        assert.ok(e instanceof RpcError, String(e));
        assert.equal(e.code, Code.Unavailable);
        assert.match(
          e.message,
          new RegExp(
            `no provider matches group=green, version=1\\.0\\.0, but 1 provider\\(s\\) of demo\\.ClusterService are registered with another group or version: 127\\.0\\.0\\.1:${port} \\(group=blue, version=1\\.0\\.0\\)`,
          ),
        );
        return true;
      });
    } finally {
      for (const app of local.reverse()) await app.stop();
      await registry.stop();
    }
  });
});
