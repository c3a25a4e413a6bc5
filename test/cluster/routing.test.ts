// End to end over real sockets: a condition router in front of three provider processes, and the
// mock wrapper on references whose providers are down.
//
// The application cannot yet put a router on a direct-url reference (its StaticDirectory is built
// with no routers), so the routing case assembles the same pieces the application would (dubbo
// protocol references, StaticDirectory, the `condition` router factory, the cluster extension
// point) by hand. The mock cases go through the application API.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, it } from "node:test";
import { createExtensions } from "../../src/app/extensions.js";
import { createClusterInvoker, createStaticDirectory } from "../../src/cluster/index.js";
import { silentLogger } from "../../src/core/index.js";
import { Code, createDubbo, RpcError, Url } from "../../src/index.js";
import { createDubboProtocol } from "../../src/protocol/dubbo/index.js";
import { createStub } from "../../src/proxy/index.js";
import { pollUntil } from "../../src/testing/index.js";
import { CLUSTER_SERVICE_INTERFACE, ClusterService } from "./fixtures/cluster-service.js";
import { seededRandom } from "./load.js";
import { type ClusterProvider, killAll, spawnClusterProviders } from "./spawn-cluster-provider.js";

const quiet = silentLogger;
const CALLS = 60;

let providers: ClusterProvider[] = [];
before(async () => {
  providers = await spawnClusterProviders([
    { id: "p1", latencyMs: 0 },
    { id: "p2", latencyMs: 0 },
    { id: "p3", latencyMs: 0 },
  ]);
});
after(() => killAll(providers));

/** A loopback port nobody listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === "object");
  return address.port;
}

async function countServers(call: () => Promise<string>, n: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const id = await call();
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe("cluster routing and mock over real sockets", () => {
  it("routing - a condition rule sends one method to one provider; when it dies the call fails, naming why", async () => {
    const p2 = providers[1] as ClusterProvider;
    const extensions = createExtensions();
    const protocol = createDubboProtocol({ logger: quiet });
    try {
      const consumerUrl = Url.parse(
        `consumer://127.0.0.1/${CLUSTER_SERVICE_INTERFACE}?interface=${CLUSTER_SERVICE_INTERFACE}&side=consumer&retries=2&timeout=5000`,
      );
      const invokers = await Promise.all(
        providers.map((p) =>
          protocol.refer(
            Url.parse(
              `dubbo://127.0.0.1:${p.port}/${CLUSTER_SERVICE_INTERFACE}?interface=${CLUSTER_SERVICE_INTERFACE}&timeout=5000`,
            ),
          ),
        ),
      );
      const rule = `method = whoamiToo => port = ${p2.port}`;
      const router = extensions.router.get("condition")(
        Url.parse(
          `condition://0.0.0.0/${CLUSTER_SERVICE_INTERFACE}?category=routers&force=true&rule=${encodeURIComponent(rule)}`,
        ),
      );
      const directory = createStaticDirectory(consumerUrl, invokers, [router]);
      const invoker = createClusterInvoker(
        directory,
        {
          loadBalance: (name) => extensions.loadBalance.get(name),
          warn: () => {},
          random: seededRandom(5),
          rpcStatus: extensions.rpcStatus,
        },
        extensions.cluster,
      );
      const stub = createStub(ClusterService, invoker);

      // The rule's method goes to p2 only; the other method still spreads over all three.
      const routed = await countServers(() => stub.whoamiToo("x"), CALLS);
      assert.deepEqual([...routed], [["p2", CALLS]]);
      const spread = await countServers(() => stub.whoami("x"), CALLS);
      assert.deepEqual([...spread.keys()].sort(), ["p1", "p2", "p3"]);

      // With p2 gone the rule leaves only p2 (force=true): failover must not fall back to p1/p3.
      // As Java's select, the only candidate is called although its link is down, so every
      // attempt fails on p2 and the error names it.
      p2.kill("SIGKILL");
      assert.ok(await pollUntil(() => !invokers[1]!.isAvailable(), 10_000), "p2's link never closed");
      await assert.rejects(stub.whoamiToo("after"), (e: unknown) => {
        assert.ok(e instanceof RpcError, String(e));
        assert.equal(e.code, Code.Unavailable, e.message);
        assert.match(
          e.message,
          new RegExp(`tried 3 time\\(s\\) on providers \\[127\\.0\\.0\\.1:${p2.port}\\]`),
        );
        return true;
      });
      // The unrouted method carries on with the two live providers.
      const survivors = await countServers(() => stub.whoami("after"), CALLS);
      assert.deepEqual([...survivors.keys()].sort(), ["p1", "p3"]);
    } finally {
      await protocol.destroy();
    }
  });

  it("mock - force:return null answers without calling the providers", async () => {
    const live = providers[0]!;
    await using app = await createDubbo({ application: { name: "mock-force" }, env: false, logger: quiet });
    const stub = await app.refer(ClusterService, {
      url: `dubbo://127.0.0.1:${live.port};dubbo://127.0.0.1:${await deadPort()}`,
      check: false,
      mock: "force:return null",
    });
    assert.equal(await stub.whoami("x"), null);
    // Force never reaches a provider: the live one has no call counted.
    const liveUrl = Url.parse(`dubbo://127.0.0.1:${live.port}/${CLUSTER_SERVICE_INTERFACE}`);
    assert.equal(app.extensions.rpcStatus.of(liveUrl, "whoami").total, 0);
  });

  it("mock - fail:return answers when every provider is down; without it the same call fails Unavailable", async () => {
    const ports = [await deadPort(), await deadPort()];
    const url = ports.map((p) => `dubbo://127.0.0.1:${p}`).join(";");
    await using app = await createDubbo({ application: { name: "mock-fail" }, env: false, logger: quiet });
    const plain = await app.refer(ClusterService, { url, check: false, retries: 2 });
    await assert.rejects(
      plain.whoami("x"),
      (e: unknown) => e instanceof RpcError && e.code === Code.Unavailable,
    );
    const mocked = await app.refer(ClusterService, {
      url,
      check: false,
      retries: 2,
      mock: 'fail:return "fallback"',
      methods: { whoamiToo: { mock: "fail:return null" } },
    });
    assert.equal(await mocked.whoami("x"), "fallback");
    assert.equal(await mocked.whoamiToo("x"), null);
  });

  it("mock - fail: a live provider's answer wins over the mock", async () => {
    const live = providers[2]!;
    await using app = await createDubbo({ application: { name: "mock-live" }, env: false, logger: quiet });
    const stub = await app.refer(ClusterService, {
      url: `dubbo://127.0.0.1:${live.port}`,
      mock: 'fail:return "fallback"',
    });
    assert.equal(await stub.whoami("x"), live.id);
  });
});
