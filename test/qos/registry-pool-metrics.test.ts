// Java 3's registry and thread-pool metrics on /metrics of the QoS port, with a real provider and
// consumer on a real ZooKeeper: the provider's interface- and application-level registrations and
// its request pool's sizes, the consumer's subscription and notifications, moving as they happen.
import assert from "node:assert/strict";
import { it } from "node:test";
import { type DubboApplication, defineService, java } from "../../src/index.js";
import { waitFor } from "../../src/testing/index.js";
import { useZooKeeper } from "../registry/zookeeper-fixture.js";
import { httpGet } from "./qos-client.js";
import { zookeeperQosApplication } from "./zookeeper-qos-app.js";

const Gate = defineService("org.demo.metrics.Gate", {
  pass: { args: [java.String], returns: java.String },
});
const fixture = useZooKeeper("dubbo-ts-registry-pool-metrics-");

/** The value of the one sample of `name` whose labels are exactly `labels`. */
async function sample(app: DubboApplication, name: string, labels: string): Promise<number | undefined> {
  const { body } = await httpGet(app.qosPort, "/metrics");
  const line = body.split("\n").find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

function application(name: string, threads?: number): Promise<DubboApplication> {
  return zookeeperQosApplication(fixture, name, threads === undefined ? {} : { threads, queues: 0 });
}

it("registry and thread-pool metrics - Java's names and labels, moving with registers, notifications and load", async () => {
  const releases: Array<() => void> = [];
  const provider = await application("metrics-provider", 2);
  await provider.export(Gate, {
    pass: (s: string) => new Promise<string>((resolve) => releases.push(() => resolve(s))),
  });
  const zk = fixture.zk.connectString;
  const app = 'application_name="metrics-provider"';

  assert.equal(
    await sample(
      provider,
      "dubbo_registry_register_service_total",
      `${app},interface="org.demo.metrics.Gate",registry_cluster="${zk}"`,
    ),
    1,
  );
  for (const [family, value] of [
    ["dubbo_registry_register_service_succeed_total", 1],
    ["dubbo_registry_register_service_failed_total", 0],
  ] as const) {
    assert.equal(
      await sample(provider, family, `${app},interface="org.demo.metrics.Gate",registry_cluster="${zk}"`),
      value,
      family,
    );
  }
  // register-mode=all: the instance under /services/metrics-provider is Java's register request.
  assert.equal(
    await sample(provider, "dubbo_registry_register_requests_total", `${app},registry_cluster="${zk}"`),
    1,
  );
  assert.equal(
    await sample(
      provider,
      "dubbo_registry_register_requests_succeed_total",
      `${app},registry_cluster="${zk}"`,
    ),
    1,
  );

  const { body } = await httpGet(provider.qosPort, "/metrics");
  const poolName = /thread_pool_name="(DubboServerHandler-\d+)"/.exec(body)?.[1];
  assert.ok(poolName, "the dubbo server's pool is named as Java names it");
  const pool = `${app},thread_pool_name="${poolName}"`;
  const sizes = async () => ({
    core: await sample(provider, "dubbo_thread_pool_core_size", pool),
    max: await sample(provider, "dubbo_thread_pool_max_size", pool),
    active: await sample(provider, "dubbo_thread_pool_active_size", pool),
    largest: await sample(provider, "dubbo_thread_pool_largest_size", pool),
    threads: await sample(provider, "dubbo_thread_pool_thread_count", pool),
    queue: await sample(provider, "dubbo_thread_pool_queue_size", pool),
    rejected: await sample(provider, "dubbo_thread_pool_reject_thread_count", pool),
  });
  assert.deepEqual(await sizes(), {
    core: 2,
    max: 2,
    active: 0,
    largest: 0,
    threads: 0,
    queue: 0,
    rejected: 0,
  });

  const consumer = await application("metrics-consumer");
  const gate = await consumer.refer(Gate, { check: false, retries: 0 });
  const capp = 'application_name="metrics-consumer"';
  assert.equal(
    await sample(consumer, "dubbo_registry_subscribe_num_total", `${capp},registry_cluster="${zk}"`),
    1,
  );
  assert.equal(
    await sample(consumer, "dubbo_registry_subscribe_num_succeed_total", `${capp},registry_cluster="${zk}"`),
    1,
  );
  await waitFor(
    "the consumer to be notified of the provider",
    async () =>
      (await sample(
        consumer,
        "dubbo_registry_notify_num_last",
        `${capp},interface="org.demo.metrics.Gate"`,
      )) === 1,
  );
  const notifiedBefore = (await sample(consumer, "dubbo_registry_notify_requests_total", capp)) ?? 0;
  assert.ok(notifiedBefore >= 1);

  const held = [gate.pass("a"), gate.pass("b")];
  await waitFor("both calls to hold the pool", () => releases.length === 2);
  await assert.rejects(gate.pass("c"), /threadpool|exhausted|busy/i, "a third call finds the pool full");
  assert.deepEqual(await sizes(), {
    core: 2,
    max: 2,
    active: 2,
    largest: 2,
    threads: 2,
    queue: 0,
    rejected: 1,
  });
  for (const release of releases) release();
  assert.deepEqual(await Promise.all(held), ["a", "b"]);
  await waitFor(
    "the pool to drain",
    async () => (await sample(provider, "dubbo_thread_pool_active_size", pool)) === 0,
  );
  assert.equal(await sample(provider, "dubbo_thread_pool_largest_size", pool), 2);

  // A second provider: the consumer is notified again, of two providers now.
  const second = await application("metrics-provider-2");
  await second.export(Gate, { pass: (s: string) => s });
  await waitFor(
    "the consumer to be notified of the second provider",
    async () =>
      (await sample(
        consumer,
        "dubbo_registry_notify_num_last",
        `${capp},interface="org.demo.metrics.Gate"`,
      )) === 2,
  );
  assert.ok(((await sample(consumer, "dubbo_registry_notify_requests_total", capp)) ?? 0) > notifiedBefore);
});
