// Java Dubbo 3.3.6 in interface discovery (register-mode=interface, consumers FORCE_INTERFACE) over
// the dubbo protocol, both ways through one real ZooKeeper: a Java 3.3 consumer calls our provider,
// our consumer calls a Java 3.3 provider. Each side registers under its own ZooKeeper root (the
// registry's `group`), so each consumer finds exactly the provider under test.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort, startZooKeeper, type ZooKeeperServer } from "../../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, type GenericStub } from "../../../src/index.js";
import { INTEROP_SERVICE, InteropService, startTsProvider } from "./interop-contract.js";
import { caseLine, itServesJavaConsumer } from "./java-consumer-run.js";
import {
  DUBBO_RELEASE,
  type JavaProvider,
  javaLocalHost,
  type PeerLine,
  startJavaConsumer,
  startJavaProvider,
} from "./java-peer.js";
import { type InteropStub, itCallsJavaProvider } from "./ts-consumer-cases.js";

describe(`Java Dubbo ${DUBBO_RELEASE["3.3"]} in interface mode, both ways`, () => {
  let zk: ZooKeeperServer;
  let tsProvider: DubboApplication | undefined;
  let javaProvider: JavaProvider | undefined;
  let tsConsumer: DubboApplication | undefined;
  /** What the Java 3.3 consumer's `cases` printed against our provider. */
  let javaLines: readonly PeerLine[] = [];
  /** What its `registered` printed against Java's own provider. */
  let javaToJava: readonly PeerLine[] = [];
  let stub: InteropStub;
  let generic: GenericStub;

  before(async () => {
    zk = await startZooKeeper();
    const tsSide = `zookeeper://${zk.connectString}?group=ts-side`;
    const javaSide = `zookeeper://${zk.connectString}?group=java-side`;
    const javaConsumer = startJavaConsumer("3.3");
    try {
      const host = await javaLocalHost();
      tsProvider = await startTsProvider(tsSide, host, await freePort());
      // The Java provider starts while the Java consumer runs its cases (each JVM takes seconds).
      const javaProviderPort = await freePort();
      [javaLines] = await Promise.all([
        javaConsumer.command(`cases ${tsSide}`),
        startJavaProvider("3.3", javaSide, javaProviderPort).then((started) => {
          javaProvider = started;
        }),
      ]);
      javaToJava = await javaConsumer.command(`registered ${javaSide}`);
    } finally {
      await javaConsumer.stop();
    }
    tsConsumer = await createDubbo({
      application: { name: "ts-consumer" },
      registry: { address: javaSide },
      env: false,
    });
    stub = await tsConsumer.refer(InteropService);
    generic = await tsConsumer.referGeneric(INTEROP_SERVICE);
  });

  after(async () => {
    await tsConsumer?.stop();
    await javaProvider?.stop();
    await tsProvider?.stop();
    await zk?.stop();
  });

  itServesJavaConsumer("java 3.3 consumer (registry)", () => javaLines);

  it("java 3.3 consumer (registry) - our provider's response attachment reaches Java's response context", () => {
    assert.deepEqual(caseLine(javaLines, "attachments").result, { received: "ping", replied: "pong-ping" });
  });

  it("java 3.3 consumer (registry) - Java honours the timeout=3000 our provider registers", () => {
    assert.equal(caseLine(javaLines, "registered.timeout").result, "slept 1500");
  });

  it("java 3.3 consumer (registry) - Java retries sleepCounted on our provider as on its own", () => {
    // Java 3.3's failover reads `retries` from the consumer's own URL only, so the provider's
    // sleepCounted.retries=0 does not stop it: 3 calls, from Java's provider as from ours.
    const retries = { ours: caseLine(javaLines, "registered.retries").result };
    assert.deepEqual(retries, { ours: caseLine(javaToJava, "registered.retries").result });
    assert.deepEqual(retries.ours, { outcome: "RpcException", calls: 3 });
  });

  itCallsJavaProvider("java 3.3 provider (registry)", () => ({ stub, generic }));

  it("java 3.3 provider (registry) - our consumer honours the timeout=3000 the Java provider registers", async () => {
    assert.equal(await stub.sleep(1500), "slept 1500");
  });
});
