// An application with a QoS port on a free port and the fixture's ZooKeeper as its registry, for
// the tests that read its /metrics; stopped with the fixture.
import { join } from "node:path";
import { createDubbo, type DubboApplication, type ProtocolConfig, silentLogger } from "../../src/index.js";
import type { ZooKeeperFixture } from "../registry/zookeeper-fixture.js";

export async function zookeeperQosApplication(
  fixture: ZooKeeperFixture,
  name: string,
  protocol: Partial<ProtocolConfig> = {},
): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name, qosPort: 0 },
    env: false,
    logger: silentLogger,
    registry: {
      address: `zookeeper://${fixture.zk.connectString}`,
      file: join(fixture.dir, `${name}.cache`),
    },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0, ...protocol },
  });
  fixture.cleanups.push(() => app.stop());
  await app.start();
  return app;
}
