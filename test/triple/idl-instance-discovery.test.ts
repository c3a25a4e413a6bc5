// Application-level (instance) discovery of an IDL service whose proto sets `java_package`, on a
// real ZooKeeper: the provider registers only per application (`registerMode: "instance"`), so the
// consumer finds it through the interface-to-application mapping under the Java interface
// (`dubbo.tri.test.Greeter`) and the instance's metadata, and calls the proto path over tri.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { createDubbo, defineProtoService, type ProtoImplementation, silentLogger } from "../../src/index.js";
import { useZooKeeper } from "../registry/zookeeper-fixture.js";
import { Greeter as JavaPackageGreeter } from "./gen/greeter_java_package_pb.js";
import { collect, greeterImplementation } from "./greeter-peers.js";

const GreeterService = defineProtoService(JavaPackageGreeter);
const fixture = useZooKeeper("dubbo-ts-idl-instance-");

test("idl instance discovery - a consumer finds and calls an IDL provider registered per application only", async () => {
  const registry = (name: string) => ({
    address: `zookeeper://${fixture.zk.connectString}`,
    file: join(fixture.dir, `${name}.cache`),
  });
  const provider = await createDubbo({
    application: { name: "idl-instance-provider", registerMode: "instance" },
    env: false,
    logger: silentLogger,
    registry: registry("provider"),
    protocol: { name: "tri", host: "127.0.0.1", port: 0 },
  });
  fixture.cleanups.push(() => provider.stop());
  // greeter_java_package.proto's messages are greeter.proto's, under another proto package.
  const implementation = greeterImplementation(
    { oursEndings: [], produced: 0 },
    "instance",
  ) as unknown as ProtoImplementation<typeof JavaPackageGreeter>;
  await provider.export(GreeterService, implementation, { scope: "remote" });
  assert.deepEqual(
    (await fixture.inspector.getChildren("/dubbo/dubbo.tri.test.Greeter/providers")) ?? [],
    [],
    "registered per application only",
  );
  assert.equal((await fixture.inspector.getChildren("/services/idl-instance-provider"))?.length, 1);

  const consumer = await createDubbo({
    application: { name: "idl-instance-consumer" },
    env: false,
    logger: silentLogger,
    registry: registry("consumer"),
  });
  fixture.cleanups.push(() => consumer.stop());
  const greeter = await consumer.refer(GreeterService, { timeoutMs: 3000 });
  let servedBy: unknown;
  const reply = await greeter.sayHello({ name: "ivy" }, { onMetadata: (m) => (servedBy = m["x-served-by"]) });
  assert.equal(reply.message, "hello ivy from nobody");
  assert.equal(servedBy, "instance");
  assert.deepEqual(
    (await collect(greeter.countdown({ name: "c", count: 2 }))).map((r) => r.index),
    [2, 1],
  );
});
