// Java 3's registry directory metrics and its service-level subscribe count on /metrics of a
// running consumer, on a real ZooKeeper with real providers: the counts move as a provider process
// is killed (its node stays until its session ends, so it waits to be reconnected), as an override
// rule disables one, and as a provider application stops (unregistered at both levels).
import assert from "node:assert/strict";
import { it } from "node:test";
import { Url } from "../../src/core/index.js";
import type { DubboApplication } from "../../src/index.js";
import { waitFor } from "../../src/testing/index.js";
import { DemoService, IFACE, spawnRegistryProvider } from "../registry/kit.js";
import { useZooKeeper } from "../registry/zookeeper-fixture.js";
import { httpGet } from "./qos-client.js";
import { zookeeperQosApplication } from "./zookeeper-qos-app.js";

const fixture = useZooKeeper("dubbo-ts-directory-metrics-");

/** Every sample of the `/metrics` page, by `name{labels}`. */
async function samples(app: DubboApplication): Promise<Map<string, number>> {
  const { body } = await httpGet(app.qosPort, "/metrics");
  const found = new Map<string, number>();
  for (const line of body.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    found.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return found;
}

it("directory metrics - Java's families and labels per register mode, moving as providers die, are disabled and leave", async () => {
  const zk = fixture.zk.connectString;
  const registry = `zookeeper://${zk}`;
  const alpha = await spawnRegistryProvider(registry, "alpha");
  fixture.cleanups.push(() => alpha.kill());
  const beta = await spawnRegistryProvider(registry, "beta");
  fixture.cleanups.push(() => beta.kill());
  // An application registers per interface and per instance (register-mode=all).
  const gamma = await zookeeperQosApplication(fixture, "dir-gamma");
  await gamma.export(DemoService, { whoAmI: (caller: string) => `gamma answers ${caller}` });

  const consumer = await zookeeperQosApplication(fixture, "dir-consumer");
  const stub = await consumer.refer(DemoService, { check: false });
  const app = 'application_name="dir-consumer"';
  const counts = async (mode: "interface" | "instance") => {
    const all = await samples(consumer);
    const labels = `{${app},interface="${IFACE}",register_mode="${mode}",registry="${zk}"}`;
    return {
      all: all.get(`dubbo_registry_directory_num_all${labels}`),
      valid: all.get(`dubbo_registry_directory_num_valid_total${labels}`),
      toReconnect: all.get(`dubbo_registry_directory_num_to_reconnect_total${labels}`),
      disabled: all.get(`dubbo_registry_directory_num_disable_total${labels}`),
    };
  };
  /** Waits for `[all, valid, toReconnect, disabled]` of the directory of `mode`. */
  const reach = async (what: string, mode: "interface" | "instance", numbers: readonly number[]) => {
    const [all, valid, toReconnect, disabled] = numbers;
    const expected = { all, valid, toReconnect, disabled };
    let last: object | undefined;
    await waitFor(what, async () => {
      last = await counts(mode);
      return JSON.stringify(last) === JSON.stringify(expected);
    }).catch((error: unknown) => {
      throw new Error(`${what}: last ${JSON.stringify(last)}, want ${JSON.stringify(expected)}`, {
        cause: error,
      });
    });
  };

  await reach("three providers per interface", "interface", [3, 3, 0, 0]);
  await reach("one application instance", "instance", [1, 1, 0, 0]);
  assert.match(await stub.whoAmI("c"), /answers c$/);

  // APPLICATION_FIRST subscribes the instance level once, as Java's ServiceDiscoveryRegistry counts.
  const subscribed = await samples(consumer);
  const perService = `{${app},interface="${IFACE}",registry_cluster="${zk}"}`;
  assert.equal(subscribed.get(`dubbo_registry_subscribe_service_num_total${perService}`), 1);
  assert.equal(subscribed.get(`dubbo_registry_subscribe_service_num_succeed_total${perService}`), 1);
  assert.equal(subscribed.get(`dubbo_registry_subscribe_service_num_failed_total${perService}`), 0);

  // Killed, beta's node stays until its session expires: listed, referred, its link down.
  await beta.kill();
  await reach("beta waiting to be reconnected", "interface", [3, 2, 1, 0]);

  const rulePath = `/dubbo/${IFACE}/configurators`;
  await fixture.inspector.mkdirp(rulePath);
  const rule = Url.parse(
    `override://${alpha.address}/${IFACE}?category=configurators&dynamic=false&disabled=true&enabled=true`,
  );
  await fixture.inspector.create(`${rulePath}/${rule.encode()}`, false);
  await reach("alpha disabled by a rule", "interface", [2, 1, 1, 1]);

  await gamma.stop();
  await reach("gamma gone from the interface level", "interface", [1, 0, 1, 1]);
  await reach("gamma gone from the instance level", "instance", [0, 0, 0, 0]);
});
