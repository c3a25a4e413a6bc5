// `dubbo-ts qos` (the bin, as a process) against a dubbo-ts application's own QoS port: ls, a
// probe, invoke with JSON arguments, offline/online of one service, and /metrics with Java's names.
import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import { createDubbo, defineService, java, silentLogger } from "../../src/index.js";
import { startEmbeddedRegistry } from "../../src/registry/dubbo/index.js";
import { REPO_ROOT, runToEnd } from "../run-process.js";

const BIN = join(REPO_ROOT, "bin", "dubbo-ts.mjs");
const Greeter = defineService("com.example.QosGreeter", {
  greet: { args: [java.String], returns: java.String },
});

it("cli - qos runs each command on our own QoS port", async () => {
  const registry = await startEmbeddedRegistry({ host: "127.0.0.1", port: 0, logger: silentLogger });
  try {
    await using app = await createDubbo({
      application: { name: "cli-qos-provider", qosPort: 0 },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
      registry: { address: registry.url.toString(), useFileCache: false },
      env: false,
      logger: silentLogger,
    });
    await app.export(Greeter, { greet: (n: string) => `hi ${n}` });
    await app.start();
    const qos = `127.0.0.1:${app.qosPort}`;
    const run = (...args: string[]) =>
      runToEnd(process.execPath, [BIN, "qos", qos, ...args], { cwd: REPO_ROOT, timeoutMs: 60_000 });

    const ls = await run("ls");
    assert.equal(ls.code, 0, ls.stderr);
    assert.match(ls.stdout, /\| com\.example\.QosGreeter +\| +Y +\|/);

    const ready = await run("ready", "--json");
    assert.equal(ready.code, 0, ready.stderr);
    assert.deepEqual(JSON.parse(ready.stdout), { status: 200, body: "true" });

    const invoked = await run("invoke", 'com.example.QosGreeter.greet("ann")');
    assert.equal(invoked.code, 0, invoked.stderr);
    assert.match(invoked.stdout, /result: "hi ann"\nelapsed: \d+ ms\./);

    assert.equal((await run("offline", "com.example.QosGreeter")).stdout.trim(), "OK");
    assert.match((await run("ls")).stdout, /\| com\.example\.QosGreeter +\| +N +\|/);
    assert.equal((await run("online", "com.example.QosGreeter")).stdout.trim(), "OK");

    const metrics = await run("metrics");
    assert.equal(metrics.code, 0, metrics.stderr);
    assert.match(
      metrics.stdout,
      /^dubbo_provider_requests_total\{application_name="cli-qos-provider",.*method="greet".*\} 1$/m,
    );
    assert.match(
      metrics.stdout,
      /^dubbo_registry_register_service_total\{application_name="cli-qos-provider",interface="com\.example\.QosGreeter",registry_cluster="[^"]+"\} [12]$/m,
    );
    assert.match(
      metrics.stdout,
      /^dubbo_thread_pool_max_size\{application_name="cli-qos-provider",thread_pool_name="DubboServerHandler-\d+"\} 200$/m,
    );

    const unknown = await run("nosuch");
    assert.equal(unknown.code, 1);
  } finally {
    await registry.stop();
  }
});
