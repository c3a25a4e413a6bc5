// dubbo-admin's rules in the config center (`/dubbo/config/dubbo/{key}{suffix}`, the YAML text
// its console writes) steer our consumer and a Java Dubbo 3.3.6 consumer the same way, in turn:
// a configurator v3.0 with a match disabling the Java provider, a condition rule v3.1 sending
// whoAmI to our provider, and a tag rule (keyed by the providers' application) naming the Java
// provider, so untagged calls go to ours; a tag rule that does not parse leaves the one before in
// force on both sides. Removing (or switching off) a rule brings both providers back for both.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort, startZooKeeper, type ZooKeeperServer } from "../../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, type Logger, silentLogger } from "../../../src/index.js";
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

/** Both providers belong to one application, as the key of a tag rule is the providers' application. */
const PROVIDER_APP = "rules-provider";
const RULES = "/dubbo/config/dubbo";
const SERVICE_KEY = `${PICK_SERVICE_INTERFACE}::`;
const ROUNDS = 40;

function configuratorV30(address: string, enabled: boolean): string {
  return `configVersion: v3.0
scope: service
key: ${PICK_SERVICE_INTERFACE}
enabled: ${enabled}
configs:
  - side: consumer
    match:
      providerAddress:
        exact: "${address}"
    parameters:
      disabled: true
`;
}

function conditionV31(port: number): string {
  return `configVersion: v3.1
scope: service
key: ${PICK_SERVICE_INTERFACE}
force: false
runtime: true
enabled: true
conditions:
  - from:
      match: method=whoAmI
    to:
      - match: port=${port}
        weight: 100
`;
}

function tagRule(address: string): string {
  return `force: false
runtime: true
enabled: true
key: ${PROVIDER_APP}
tags:
  - name: gray
    addresses: ["${address}"]
`;
}

describe("config-center rules steer our consumer and a Java 3.3.6 consumer alike", () => {
  let zk: ZooKeeperServer;
  let host: string;
  let javaPort: number;
  let tsPort: number;
  let java: MeshConsumer;
  let ours: { whoAmI(): Promise<number> };
  const errors: string[] = [];
  const members: MeshMember[] = [];
  const apps: DubboApplication[] = [];

  /** Writes (or with `undefined` deletes) a rule node through a short-lived client of its own. */
  async function writeRule(path: string, text: string | undefined): Promise<void> {
    const client = new ZkClient({
      connectString: zk.connectString,
      sessionTimeoutMs: 30_000,
      operationTimeoutMs: 10_000,
    });
    await client.connect(30_000);
    try {
      await client.mkdirp(RULES);
      const exists = await client.exists(path);
      if (text === undefined) {
        if (exists) await client.remove(path);
      } else if (exists) {
        await client.setData(path, Buffer.from(text), -1);
      } else {
        await client.create(path, false, Buffer.from(text));
      }
    } finally {
      client.close();
    }
  }

  /** Rounds of calls until a round sees exactly `wanted` (bounded); returns the last round's ports. */
  async function settle(round: () => Promise<number[]>, wanted: number[]): Promise<number[]> {
    let seen: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      seen = (await round()).sort();
      if (JSON.stringify(seen) === JSON.stringify([...wanted].sort())) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return seen;
  }

  const oursRound = async (): Promise<number[]> => {
    const seen = new Set<number>();
    for (let i = 0; i < 30; i++) seen.add(await ours.whoAmI());
    return [...seen];
  };
  const javaRound = async (): Promise<number[]> => (await java.until([javaPort, tsPort], 30)).seen;

  async function bothSee(wanted: number[], what: string): Promise<void> {
    const expected = [...wanted].sort();
    assert.deepEqual(await settle(oursRound, wanted), expected, `our consumer, ${what}`);
    assert.deepEqual(await settle(javaRound, wanted), expected, `the Java consumer, ${what}`);
  }

  before(async () => {
    zk = await startZooKeeper();
    const registry = `zookeeper://${zk.connectString}`;
    host = await javaLocalHost();
    [javaPort, tsPort] = [await freePort(), await freePort()];
    members.push(await startJavaMeshProvider(PROVIDER_APP, registry, javaPort));
    const provider = await createDubbo({
      application: { name: PROVIDER_APP },
      protocol: { name: "dubbo", host, port: tsPort },
      registry: { address: registry },
      env: false,
    });
    apps.push(provider);
    await provider.export(PickService, { whoAmI: () => tsPort }, { scope: "remote" });
    const recording: Logger = { ...silentLogger, error: (message) => errors.push(message) };
    const consumer = await createDubbo({
      application: { name: "rules-ts-consumer" },
      registry: { address: registry },
      env: false,
      logger: recording,
    });
    apps.push(consumer);
    ours = await consumer.refer(PickService, { check: false, timeoutMs: 3000 });
    java = startJavaMeshConsumer("rules-java-consumer", registry);
    members.push(java);
  });

  after(async () => {
    await Promise.allSettled(apps.map((a) => a.stop()));
    await Promise.allSettled(members.map((m) => m.stop()));
    await zk?.stop();
  });

  it("without a rule both consumers reach both providers", async () => {
    await bothSee([javaPort, tsPort], "no rule");
  });

  it("a configurator v3.0 whose match names the Java provider disables it for both; enabled: false lifts it", async () => {
    const path = `${RULES}/${SERVICE_KEY}.configurators`;
    await writeRule(path, configuratorV30(`${host}:${javaPort}`, true));
    await bothSee([tsPort], "the Java provider disabled");
    await writeRule(path, configuratorV30(`${host}:${javaPort}`, false));
    await bothSee([javaPort, tsPort], "the rule switched off");
    await writeRule(path, undefined);
  });

  it("a condition rule v3.1 sends whoAmI to our provider for both; deleting it brings both back", async () => {
    const path = `${RULES}/${SERVICE_KEY}.condition-router`;
    await writeRule(path, conditionV31(tsPort));
    await bothSee([tsPort], "whoAmI routed to port " + tsPort);
    await writeRule(path, undefined);
    await bothSee([javaPort, tsPort], "the condition rule deleted");
  });

  it("a tag rule naming the Java provider leaves untagged calls to ours; a broken rule keeps it in force", async () => {
    const path = `${RULES}/${PROVIDER_APP}.tag-router`;
    await writeRule(path, tagRule(`${host}:${javaPort}`));
    await bothSee([tsPort], "the Java provider tagged gray");
    const before = errors.length;
    await writeRule(path, `${tagRule(`${host}:${javaPort}`)}  - name: [broken\n`);
    for (let i = 0; i < ROUNDS && errors.length === before; i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(
      errors.slice(before).join("\n"),
      /rules-provider\.tag-router.*not applied \(the previous rule stays in force\).*not valid YAML/,
    );
    await bothSee([tsPort], "the broken rule ignored");
    await writeRule(path, undefined);
    await bothSee([javaPort, tsPort], "the tag rule deleted");
  });
});
