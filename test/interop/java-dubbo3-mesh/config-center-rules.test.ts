// dubbo-admin's override rule in the config center (`/dubbo/config/dubbo/{interface::}.configurators`,
// YAML v2.7) steers our consumer and a Java Dubbo 3.3.6 consumer the same way: with the Java
// provider disabled by the rule, both call only our provider; with the rule switched off, both again.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort, startZooKeeper, type ZooKeeperServer } from "../../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, silentLogger } from "../../../src/index.js";
import { ZkClient } from "../../../src/registry/zookeeper/zk-client.js";
import { PickService } from "../java-dubbo-real/interop-contract.js";
import { javaLocalHost } from "../java-dubbo-real/java-peer.js";
import {
  type MeshConsumer,
  type MeshMember,
  PICK_SERVICE_INTERFACE,
  startJavaMeshConsumer,
  startJavaMeshProvider,
} from "./mesh-peer.js";

const RULE_PATH = `/dubbo/config/dubbo/${PICK_SERVICE_INTERFACE}::.configurators`;
const ROUNDS = 30;

function disableRule(address: string, enabled = true): string {
  return [
    "configVersion: v2.7",
    "scope: service",
    `key: ${PICK_SERVICE_INTERFACE}`,
    `enabled: ${enabled}`,
    "configs:",
    "  - side: consumer",
    '    addresses: ["0.0.0.0"]',
    `    providerAddresses: ["${address}"]`,
    "    parameters:",
    "      disabled: true",
  ].join("\n");
}

describe("config-center override rules steer our consumer and a Java 3.3.6 consumer alike", () => {
  let zk: ZooKeeperServer;
  let inspector: ZkClient;
  let host: string;
  let javaPort: number;
  let tsPort: number;
  let java: MeshConsumer;
  let ours: { whoAmI(): Promise<number> };
  const members: MeshMember[] = [];
  const apps: DubboApplication[] = [];

  /** Rounds of calls until a round sees exactly `wanted` (bounded); returns the last round's ports. */
  async function settle(round: () => Promise<number[]>, wanted: number[]): Promise<number[]> {
    let seen: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      seen = (await round()).sort();
      if (JSON.stringify(seen) === JSON.stringify([...wanted].sort())) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return seen;
  }

  const oursRound = async (): Promise<number[]> => {
    const seen = new Set<number>();
    for (let i = 0; i < 30; i++) seen.add(await ours.whoAmI());
    return [...seen];
  };
  const javaRound = async (): Promise<number[]> => (await java.until([javaPort, tsPort], 30)).seen;

  before(async () => {
    zk = await startZooKeeper();
    const registry = `zookeeper://${zk.connectString}`;
    inspector = new ZkClient({
      connectString: zk.connectString,
      sessionTimeoutMs: 10_000,
      operationTimeoutMs: 5000,
    });
    await inspector.connect(10_000);
    host = await javaLocalHost();
    [javaPort, tsPort] = [await freePort(), await freePort()];
    members.push(await startJavaMeshProvider("rules-java-provider", registry, javaPort));
    const provider = await createDubbo({
      application: { name: "rules-ts-provider" },
      protocol: { name: "dubbo", host, port: tsPort },
      registry: { address: registry },
      env: false,
    });
    apps.push(provider);
    await provider.export(PickService, { whoAmI: () => tsPort }, { scope: "remote" });
    const consumer = await createDubbo({
      application: { name: "rules-ts-consumer" },
      registry: { address: registry },
      env: false,
      logger: silentLogger,
    });
    apps.push(consumer);
    ours = await consumer.refer(PickService, { check: false, timeoutMs: 3000 });
    java = startJavaMeshConsumer("rules-java-consumer", registry);
    members.push(java);
  });

  after(async () => {
    await Promise.allSettled(apps.map((a) => a.stop()));
    await Promise.allSettled(members.map((m) => m.stop()));
    inspector?.close();
    await zk?.stop();
  });

  it("without a rule both consumers reach both providers", async () => {
    assert.deepEqual(await settle(oursRound, [javaPort, tsPort]), [javaPort, tsPort].sort());
    assert.deepEqual(await settle(javaRound, [javaPort, tsPort]), [javaPort, tsPort].sort());
  });

  it("the rule disabling the Java provider leaves both consumers with ours only", async () => {
    await inspector.mkdirp("/dubbo/config/dubbo");
    await inspector.create(RULE_PATH, false, Buffer.from(disableRule(`${host}:${javaPort}`)));
    assert.deepEqual(await settle(oursRound, [tsPort]), [tsPort], "our consumer");
    assert.deepEqual(await settle(javaRound, [tsPort]), [tsPort], "the Java consumer");
  });

  it("switching the rule off (enabled: false, as dubbo-admin's disable does) brings the Java provider back for both", async () => {
    await inspector.setData(RULE_PATH, Buffer.from(disableRule(`${host}:${javaPort}`, false)), -1);
    assert.deepEqual(await settle(oursRound, [javaPort, tsPort]), [javaPort, tsPort].sort(), "our consumer");
    assert.deepEqual(
      await settle(javaRound, [javaPort, tsPort]),
      [javaPort, tsPort].sort(),
      "the Java consumer",
    );
  });
});
