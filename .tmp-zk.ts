import { startZooKeeper } from "./scripts/zookeeper.mjs";
import { ZkClient } from "./src/registry/zookeeper/zk-client.js";
import { startJavaIdlPeer } from "./test/interop/java-dubbo3-idl/idl-peer.js";
import { freePort } from "./test/interop/java-dubbo-real/java-peer.js";
const zk = await startZooKeeper();
const peer = await startJavaIdlPeer();
try {
  const port = await freePort(peer.host);
  await peer.provide(`zookeeper://${zk.connectString}`, port);
  const c = new ZkClient({ connectString: zk.connectString, sessionTimeoutMs: 10000, operationTimeoutMs: 5000 });
  await c.connect(10000);
  console.log(await c.getChildren("/dubbo"));
  for (const n of (await c.getChildren("/dubbo/dubbo.tri.test.Greeter/providers")) ?? []) console.log(decodeURIComponent(n));
  const r = await peer.consume(`zookeeper://${zk.connectString}`);
  console.log([...r.values()].map((l) => JSON.stringify(l)).join("\n"));
  for (const n of (await c.getChildren("/dubbo/dubbo.tri.test.Greeter/consumers")) ?? []) console.log(decodeURIComponent(n));
  c.close();
} finally {
  await peer.stop();
  await zk.stop();
}
