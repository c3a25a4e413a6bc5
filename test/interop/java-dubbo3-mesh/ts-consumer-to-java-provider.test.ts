// Our consumer in a real Java Dubbo 3.3.6 mesh: Java providers registered per application only
// (register-mode=instance, nothing under /dubbo/{interface}/providers) are found through the
// mapping, /services/{app} and each revision's metadata (the Java metadata service, or the remote
// report), and called; the migration step (Java's default APPLICATION_FIRST, a consumer key, or the
// rule in ZooKeeper) decides which discovery a reference follows.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort, startZooKeeper, type ZooKeeperServer } from "../../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, silentLogger } from "../../../src/index.js";
import { ZkClient } from "../../../src/registry/zookeeper/zk-client.js";
import { PickService } from "../java-dubbo-real/interop-contract.js";
import { javaLocalHost } from "../java-dubbo-real/java-peer.js";
import { type MeshMember, PICK_SERVICE_INTERFACE, startJavaMeshProvider } from "./mesh-peer.js";

const LOCAL_APP = "mesh-java-instance-local";
const REMOTE_APP = "mesh-java-instance-remote";
const MAX_CALLS = 200;

describe("our consumer and Java Dubbo 3.3.6 providers registered per application only", () => {
  let zk: ZooKeeperServer;
  let registry: string;
  let inspector: ZkClient;
  let localPort: number;
  let remotePort: number;
  const members: MeshMember[] = [];
  const ours: DubboApplication[] = [];

  async function consumer(name: string, parameters: Record<string, string> = {}) {
    const app = await createDubbo({
      application: { name },
      registry: { address: registry, check: false },
      env: false,
      logger: silentLogger,
    });
    ours.push(app);
    return app.refer(PickService, { check: false, timeoutMs: 3000, parameters });
  }

  /** Calls whoAmI until every port answered or `maxCalls` calls were made (failures wait 100 ms). */
  async function portsSeen(
    stub: { whoAmI(): Promise<number> },
    ports: readonly number[],
    maxCalls: number,
  ): Promise<{ seen: number[]; error: unknown }> {
    const seen = new Set<number>();
    let error: unknown;
    for (let i = 0; i < maxCalls && !ports.every((p) => seen.has(p)); i++) {
      try {
        seen.add(await stub.whoAmI());
      } catch (e) {
        error = e;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return { seen: [...seen].sort(), error };
  }

  before(async () => {
    zk = await startZooKeeper();
    registry = `zookeeper://${zk.connectString}`;
    inspector = new ZkClient({
      connectString: zk.connectString,
      sessionTimeoutMs: 10_000,
      operationTimeoutMs: 5000,
    });
    await inspector.connect(10_000);
    await javaLocalHost();
    [localPort, remotePort] = [await freePort(), await freePort()];
    members.push(
      await startJavaMeshProvider(LOCAL_APP, registry, localPort, { registerMode: "instance" }),
      await startJavaMeshProvider(REMOTE_APP, registry, remotePort, {
        registerMode: "instance",
        metadataType: "remote",
      }),
    );
  });

  after(async () => {
    await Promise.allSettled(ours.map((a) => a.stop()));
    await Promise.allSettled(members.map((m) => m.stop()));
    inspector?.close();
    await zk?.stop();
  });

  it("the Java providers registered nothing per interface", async () => {
    const providers = await inspector.getChildren(`/dubbo/${PICK_SERVICE_INTERFACE}/providers`);
    assert.deepEqual(providers ?? [], []);
  });

  it("by default (APPLICATION_FIRST) our consumer calls both, through the metadata service and the remote report", async () => {
    const stub = await consumer("mesh-ts-consumer-default");
    const { seen, error } = await portsSeen(stub, [localPort, remotePort], MAX_CALLS);
    assert.deepEqual(seen, [localPort, remotePort].sort(), `last error: ${String(error)}`);
  });

  it("provided-by names the provider application and skips the mapping", async () => {
    const stub = await consumer("mesh-ts-consumer-provided-by", { "provided-by": REMOTE_APP });
    const { seen, error } = await portsSeen(stub, [remotePort, localPort], 40);
    assert.deepEqual(seen, [remotePort], `last error: ${String(error)}`);
  });

  it("migration.step=FORCE_INTERFACE on the reference: no provider (they are per application only)", async () => {
    const stub = await consumer("mesh-ts-consumer-interface", { "migration.step": "FORCE_INTERFACE" });
    await assert.rejects(stub.whoAmI(), /[Nn]o provider/);
  });

  it("the migration rule in ZooKeeper (FORCE_INTERFACE for this application) wins over the default", async () => {
    const name = "mesh-ts-consumer-ruled";
    await inspector.mkdirp("/dubbo/config/DUBBO_SERVICEDISCOVERY_MIGRATION");
    await inspector.create(
      `/dubbo/config/DUBBO_SERVICEDISCOVERY_MIGRATION/${name}.migration`,
      false,
      Buffer.from(`key: ${name}\nstep: FORCE_INTERFACE\n`),
    );
    const stub = await consumer(name);
    await assert.rejects(stub.whoAmI(), /[Nn]o provider/);
  });

  it("the rule's per-interface entry (FORCE_APPLICATION) wins over its own step", async () => {
    const name = "mesh-ts-consumer-ruled-interface";
    await inspector.create(
      `/dubbo/config/DUBBO_SERVICEDISCOVERY_MIGRATION/${name}.migration`,
      false,
      Buffer.from(
        `key: ${name}\nstep: FORCE_INTERFACE\ninterfaces:\n  - serviceKey: ${PICK_SERVICE_INTERFACE}\n    step: FORCE_APPLICATION\n`,
      ),
    );
    const stub = await consumer(name);
    const { seen, error } = await portsSeen(stub, [localPort, remotePort], MAX_CALLS);
    assert.deepEqual(seen, [localPort, remotePort].sort(), `last error: ${String(error)}`);
  });
});
