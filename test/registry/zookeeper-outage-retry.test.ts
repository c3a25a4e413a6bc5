// What an application keeps in ZooKeeper outside register/subscribe (the Dubbo 3 instance node and
// the interface-to-application mapping) is retried by the registry while ZooKeeper is down, and
// written when it is back, also when the session survives the outage (a quick ZooKeeper restart:
// no new session, so only the retry brings it).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDubbo, defineService, java, silentLogger } from "../../src/index.js";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";
import { DemoService, waitFor } from "./kit.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const fixture = useZooKeeper("dubbo-ts-outage-retry-");
const LATE_IFACE = "org.apache.dubbo.demo.LateService";
const LateService = defineService(LATE_IFACE, { ping: { args: [], returns: java.String } });
const APP = "outage-provider";

async function readNode(path: string): Promise<string | undefined> {
  const client = new ZkClient({
    connectString: fixture.zk.connectString,
    sessionTimeoutMs: 10_000,
    operationTimeoutMs: 3000,
  });
  try {
    await client.connect(10_000);
    return (await client.getData(path))?.data.toString("utf8");
  } finally {
    client.close();
  }
}

describe("ZooKeeper outage: the registry's retry writes the Dubbo 3 nodes", () => {
  it("a service exported while ZooKeeper is down reaches the mapping and the instance once it is back", async () => {
    const app = await createDubbo({
      application: { name: APP },
      env: false,
      logger: silentLogger,
      registry: {
        address: `zookeeper://${fixture.zk.connectString}`,
        check: false,
        parameters: { "retry.period": "200" },
      },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    });
    fixture.cleanups.push(() => app.stop());
    await app.export(DemoService, { whoAmI: () => "demo" }, { scope: "remote" });
    await waitFor(
      "the instance node",
      async () => (await fixture.inspector.getChildren(`/services/${APP}`))?.length === 1,
    );
    const [instance] = (await fixture.inspector.getChildren(`/services/${APP}`)) ?? [];
    const before = await readNode(`/services/${APP}/${instance}`);

    await fixture.zk.halt();
    await app.export(LateService, { ping: () => "pong" }, { scope: "remote" });
    await fixture.zk.start();

    await waitFor(
      "the late service's mapping",
      async () => (await readNode(`/dubbo/mapping/${LATE_IFACE}`)) === APP,
    );
    await waitFor(
      "the instance's new revision",
      async () => (await readNode(`/services/${APP}/${instance}`)) !== before,
    );
    const revision = (text: string | undefined) =>
      JSON.parse(text ?? "{}").payload?.metadata?.["dubbo.metadata.revision"];
    assert.notEqual(revision(await readNode(`/services/${APP}/${instance}`)), revision(before));
  });
});
