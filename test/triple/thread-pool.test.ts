// Triple calls run on the protocol's thread model as dubbo calls do: with `threads: 1`, a call that
// finds the pool full is refused at once with RESOURCE_EXHAUSTED (grpc-status 8) naming the
// limit, and the pool's sizes and refusals show on /metrics under Java's names.
import assert from "node:assert/strict";
import { after, it } from "node:test";
import { Code, type DubboApplication, defineService, java, RpcError } from "../../src/index.js";
import { waitFor } from "../../src/testing/index.js";
import { httpGet } from "../qos/qos-client.js";
import { triApps } from "./tri-apps.js";

const Gate = defineService("org.demo.tri.Gate", {
  pass: { args: [java.String], returns: java.String },
});

const apps = triApps();
after(() => apps.stopAll());

/** The value of the one sample of `name` whose labels are exactly `labels`. */
async function sample(app: DubboApplication, name: string, labels: string): Promise<number | undefined> {
  const { body } = await httpGet(app.qosPort, "/metrics");
  const line = body.split("\n").find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

it("tri thread pool - a call beyond threads is refused with RESOURCE_EXHAUSTED, and the pool shows on /metrics", async () => {
  const releases: Array<() => void> = [];
  const provider = await apps.provider("tri-pool-provider", { threads: 1, queues: 0 }, { qosPort: 0 });
  await provider.start();
  const exported = await provider.export(
    Gate,
    { pass: (s) => new Promise<string>((resolve) => releases.push(() => resolve(s))) },
    { scope: "remote" },
  );
  const port = exported.urls[0]!.port;
  const consumer = await apps.consumer("tri-pool-consumer");
  const gate = await consumer.refer(Gate, { url: `tri://127.0.0.1:${port}`, retries: 0, timeoutMs: 10_000 });

  const held = gate.pass("a");
  await waitFor("the first call to hold the only thread", () => releases.length === 1);
  await assert.rejects(gate.pass("b"), (error: unknown) => {
    assert.ok(error instanceof RpcError, String(error));
    assert.equal(error.code, Code.ResourceExhausted, error.message);
    assert.match(error.message, /is busy: .*threadpool=fixed threads=1 queues=0.*raise `threads`/);
    return true;
  });
  const pool = `application_name="tri-pool-provider",thread_pool_name="DubboServerHandler-${port}"`;
  assert.equal(await sample(provider, "dubbo_thread_pool_max_size", pool), 1);
  assert.equal(await sample(provider, "dubbo_thread_pool_active_size", pool), 1);
  assert.equal(await sample(provider, "dubbo_thread_pool_reject_thread_count", pool), 1);

  releases[0]!();
  assert.equal(await held, "a");
  const next = gate.pass("c");
  await waitFor("the next call to get the freed thread", () => releases.length === 2);
  releases[1]!();
  assert.equal(await next, "c");
  await waitFor(
    "the pool to be idle again",
    async () => (await sample(provider, "dubbo_thread_pool_active_size", pool)) === 0,
  );
});
