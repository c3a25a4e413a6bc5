// Our provider as a member of a real Java Dubbo 3.3.6 mesh on a real ZooKeeper: it registers per
// interface and per application (register-mode=all, Java 3's default), and Java 3.3 consumers find
// it both ways, beside a Java 3.3 provider of the same interface. What it writes (instance node,
// revision, mapping) is compared with what Java writes for the same service.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort, startZooKeeper, type ZooKeeperServer } from "../../../scripts/zookeeper.mjs";
import { Url } from "../../../src/core/index.js";
import { createDubbo, type DubboApplication } from "../../../src/index.js";
import { PickService } from "../java-dubbo-real/interop-contract.js";
import { javaLocalHost } from "../java-dubbo-real/java-peer.js";
import {
  javaRevision,
  type MeshMember,
  PICK_SERVICE_INTERFACE,
  startJavaMeshConsumer,
  startJavaMeshProvider,
} from "./mesh-peer.js";
import { openZkReader, type ZkReader } from "./zk-nodes.js";

const JAVA_APP = "mesh-java-provider";
const TS_APP = "mesh-ts-provider";
const TS_REMOTE_APP = "mesh-ts-remote";
const MAX_CALLS = 300;

async function startTsMeshProvider(
  app: string,
  registry: string,
  host: string,
  port: number,
  metadataType: "local" | "remote" = "local",
): Promise<DubboApplication> {
  const dubbo = await createDubbo({
    application: { name: app, metadataType },
    protocol: { name: "dubbo", host, port },
    registry: { address: registry },
    env: false,
  });
  await dubbo.export(PickService, { whoAmI: () => port }, { scope: "remote" });
  return dubbo;
}

/** An instance node with what differs per run and per application replaced, keys kept in order. */
function normalizedInstance(json: string): string {
  const node = JSON.parse(json);
  const metadata = node.payload.metadata;
  const params =
    metadata["dubbo.metadata-service.url-params"] === undefined
      ? undefined
      : Object.keys(JSON.parse(metadata["dubbo.metadata-service.url-params"]));
  return JSON.stringify({
    ...node,
    name: "APP",
    id: "ID",
    address: "HOST",
    port: 0,
    registrationTimeUTC: 0,
    payload: {
      ...node.payload,
      id: "ID",
      name: "APP",
      metadata: {
        ...metadata,
        "dubbo.endpoints": metadata["dubbo.endpoints"].replace(/\d+/, "PORT"),
        "dubbo.metadata.revision": "REVISION",
        timestamp: "T",
        ...(params === undefined ? {} : { "dubbo.metadata-service.url-params": params }),
      },
    },
  });
}

describe("Java Dubbo 3.3.6 consumers and our provider in one application-level mesh", () => {
  let zk: ZooKeeperServer;
  let registry: string;
  let reader: ZkReader;
  let host: string;
  let javaPort: number;
  let tsPort: number;
  let remotePort: number;
  const members: MeshMember[] = [];
  let ours: DubboApplication[] = [];

  before(async () => {
    zk = await startZooKeeper();
    registry = `zookeeper://${zk.connectString}`;
    reader = await openZkReader(zk.connectString);
    host = await javaLocalHost();
    [javaPort, tsPort, remotePort] = [await freePort(), await freePort(), await freePort()];
    members.push(await startJavaMeshProvider(JAVA_APP, registry, javaPort));
    ours = [
      await startTsMeshProvider(TS_APP, registry, host, tsPort),
      await startTsMeshProvider(TS_REMOTE_APP, registry, host, remotePort, "remote"),
    ];
  });

  after(async () => {
    await Promise.allSettled(members.map((m) => m.stop()));
    await Promise.allSettled(ours.map((a) => a.stop()));
    reader?.close();
    await zk?.stop();
  });

  it("our instance node has the fields, order and metadata keys of Java's", async () => {
    const java = await reader.childData(`/services/${JAVA_APP}`, `:${javaPort}`);
    const ts = await reader.childData(`/services/${TS_APP}`, `:${tsPort}`);
    assert.equal(normalizedInstance(ts), normalizedInstance(java));
    const node = JSON.parse(ts);
    assert.equal(node.id, `${host}:${tsPort}`);
    assert.equal(node.payload.metadata["dubbo.endpoints"], `[{"port":${tsPort},"protocol":"dubbo"}]`);
    assert.deepEqual(JSON.parse(node.payload.metadata["dubbo.metadata-service.url-params"]), {
      "prefer.serialization": "hessian2",
      version: "1.0.0",
      dubbo: "2.0.2",
      release: "2.7.23",
      side: "provider",
      port: String(tsPort),
      protocol: "dubbo",
    });
  });

  it("our revision is the one Java 3.3's MetadataInfo computes for our registered URL", async () => {
    const providers = await reader.children(`/dubbo/${PICK_SERVICE_INTERFACE}/providers`);
    const registered = providers
      .map((name) => Url.parse(decodeURIComponent(name)))
      .find((url) => url.port === tsPort);
    assert.ok(registered, `our provider URL is registered: ${providers.join(", ")}`);
    assert.equal(registered.get("prefer.serialization"), "hessian2");
    const node = JSON.parse(await reader.childData(`/services/${TS_APP}`, `:${tsPort}`));
    const revision = node.payload.metadata["dubbo.metadata.revision"];
    assert.equal(revision, await javaRevision(TS_APP, [registered.toFullString()]));
  });

  it("the mapping node lists Java's application and ours, comma-separated, in the order they came", async () => {
    assert.equal(
      await reader.data(`/dubbo/mapping/${PICK_SERVICE_INTERFACE}`),
      `${JAVA_APP},${TS_APP},${TS_REMOTE_APP}`,
    );
  });

  it("storage-type=remote publishes the metadata at /dubbo/metadata/{app}/{revision}", async () => {
    const node = JSON.parse(await reader.childData(`/services/${TS_REMOTE_APP}`, `:${remotePort}`));
    const revision = node.payload.metadata["dubbo.metadata.revision"];
    assert.equal(node.payload.metadata["dubbo.metadata.storage-type"], "remote");
    assert.equal(node.payload.metadata["dubbo.metadata-service.url-params"], undefined);
    const published = JSON.parse((await reader.data(`/dubbo/metadata/${TS_REMOTE_APP}/${revision}`)) ?? "{}");
    assert.equal(published.revision, revision);
    assert.deepEqual(Object.keys(published.services), [`${PICK_SERVICE_INTERFACE}:dubbo`]);
  });

  it("a Java 3.3 consumer with its defaults (APPLICATION_FIRST) reaches Java's provider and ours", async () => {
    const consumer = startJavaMeshConsumer("mesh-java-consumer-default", registry);
    members.push(consumer);
    const { seen, error } = await consumer.until([javaPort, tsPort, remotePort], MAX_CALLS);
    assert.deepEqual(seen.sort(), [javaPort, tsPort, remotePort].sort(), `last error: ${error}`);
  });

  it("a Java 3.3 consumer in FORCE_APPLICATION reaches ours through the metadata service and the remote report", async () => {
    const consumer = startJavaMeshConsumer("mesh-java-consumer-app", registry, {
      migration: "FORCE_APPLICATION",
    });
    members.push(consumer);
    const { seen, error } = await consumer.until([javaPort, tsPort, remotePort], MAX_CALLS);
    assert.deepEqual(seen.sort(), [javaPort, tsPort, remotePort].sort(), `last error: ${error}`);
  });

  it("a Java 3.3 consumer in FORCE_APPLICATION with provided-by finds only the application it names", async () => {
    const consumer = startJavaMeshConsumer(
      "mesh-java-consumer-provided-by",
      registry,
      { migration: "FORCE_APPLICATION" },
      TS_APP,
    );
    members.push(consumer);
    const { seen, error } = await consumer.until([tsPort, javaPort], 60);
    assert.deepEqual(seen, [tsPort], `last error: ${error}`);
  });
});
