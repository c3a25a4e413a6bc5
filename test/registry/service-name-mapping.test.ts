// The interface -> application mapping Dubbo 3 keeps at /dubbo/mapping/{interface}: a
// comma-separated list that every provider application appends itself to with ZooKeeper's
// compare-and-set, so applications that register at the same moment all end up listed.
import assert from "node:assert/strict";
import { it } from "node:test";
import { Url } from "../../src/core/index.js";
import { ZkMetadataReport } from "../../src/registry/metadata/zk-metadata-report.js";
import { createZookeeperRegistry } from "../../src/registry/zookeeper/zookeeper-registry.js";
import { quietLogger } from "./kit.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const fixture = useZooKeeper("dubbo-ts-mapping-");

async function report(): Promise<ZkMetadataReport> {
  const url = Url.parse(`zookeeper://${fixture.zk.connectString}?file.cache=false`);
  const registry = await createZookeeperRegistry(url, { logger: quietLogger });
  fixture.cleanups.push(() => registry.destroy());
  return new ZkMetadataReport(registry);
}

it("mapping - applications adding themselves at once (one session each) are all listed, none clobbered", async () => {
  const apps = ["app-a", "app-b", "app-c", "app-d", "app-e"];
  const reports = await Promise.all(apps.map(() => report()));
  await Promise.all(reports.map((r, i) => r.addMapping("org.demo.Racy", apps[i] as string)));
  const listed = (await fixture.inspector.getData("/dubbo/mapping/org.demo.Racy"))?.data.toString();
  assert.deepEqual(listed?.split(",").sort(), apps);
});

it("mapping - an application already listed (by Java or an earlier run) leaves the node untouched", async () => {
  await fixture.inspector.mkdirp("/dubbo/mapping");
  await fixture.inspector.create("/dubbo/mapping/org.demo.Kept", false, Buffer.from("java-app,ours"));
  const ours = await report();
  await ours.addMapping("org.demo.Kept", "ours");
  await ours.addMapping("org.demo.Kept", "third");
  const node = await fixture.inspector.getData("/dubbo/mapping/org.demo.Kept");
  assert.equal(node?.data.toString(), "java-app,ours,third");
  assert.equal(node?.version, 1);
  assert.deepEqual(await ours.readMapping("org.demo.Kept"), ["java-app", "ours", "third"]);
});
