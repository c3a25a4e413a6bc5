import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDubbo, defineService, java, silentLogger } from "../../src/index.js";
import { startEmbeddedRegistry } from "../../src/registry/dubbo/index.js";
import { waitFor } from "../../src/testing/index.js";
import { httpGet, Telnet } from "./qos-client.js";

const Greeter = defineService("com.example.Greeter", {
  greet: { args: [java.String], returns: java.String },
});
const quiet = silentLogger;

describe("QoS port", () => {
  it("http and telnet on one port: probes, ls, version, metrics, offline/online seen by a consumer", async () => {
    const registry = await startEmbeddedRegistry({ host: "127.0.0.1", port: 0, logger: quiet });
    try {
      const address = registry.url.toString();
      await using provider = await createDubbo({
        application: { name: "qos-provider", qosPort: 0 },
        protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
        registry: { address, useFileCache: false },
        env: false,
        logger: quiet,
      });
      await provider.export(Greeter, { greet: (n: string) => `hi ${n}` }, { version: "1.0.0" });
      await provider.start();
      const port = provider.qosPort;
      assert.ok(port > 0, "qosPort 0 binds a free port");

      await using consumer = await createDubbo({
        application: { name: "qos-consumer", qosEnable: false },
        registry: { address, useFileCache: false },
        env: false,
        logger: quiet,
      });
      const providerCounts: number[] = [];
      consumer.extensions.monitor.on("registryNotified", (e) => {
        if (e.category === "providers" && e.service === "com.example.Greeter") providerCounts.push(e.urls);
      });
      const greeter = await consumer.refer(Greeter, { version: "1.0.0", check: false });
      await waitFor("the provider to be found", async () => (await greeter.greet("a")) === "hi a");

      assert.deepEqual(await httpGet(port, "/ready"), { status: 200, body: "true" });
      assert.deepEqual(await httpGet(port, "/live"), { status: 200, body: "true" });
      assert.deepEqual(await httpGet(port, "/version"), { status: 200, body: 'dubbo version "2.7.23"' });
      assert.equal((await httpGet(port, "/nosuch")).status, 404);
      const metrics = await httpGet(port, "/metrics");
      assert.match(
        metrics.body,
        /^dubbo_provider_requests_total\{application_name="qos-provider",group="",interface="com\.example\.Greeter",method="greet",version="1\.0\.0"\} [1-9]\d*$/m,
      );

      const telnet = new Telnet(port);
      const ls = await telnet.send("ls");
      assert.match(ls, /^As Provider side:\r\n\+-+\+-+\+\r\n\|\s+Provider Service Name\s+\| PUB \|\r\n/);
      assert.match(ls, /\| com\.example\.Greeter:1\.0\.0 \| {2}Y {2}\|\r\n/);
      assert.match(ls, /As Consumer side:\r\n/);
      assert.ok(ls.endsWith("\r\ndubbo>"));

      const served = (await telnet.send("ps -l")).split("\r\n")[0]!;
      assert.match(served, /^dubbo:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(await telnet.send("ps"), `${new URL(served).port}\r\ndubbo>`);
      assert.match(
        await telnet.send('invoke Greeter.greet("zoe")'),
        /^Use default service Greeter\.\r\nresult: "hi zoe"\r\nelapsed: \d+ ms\.\r\ndubbo>$/,
      );
      assert.equal(
        await telnet.send("invoke Greeter.wave()"),
        "Use default service Greeter.\r\nNo such method wave in service Greeter\r\ndubbo>",
      );
      const count = await telnet.send("count com.example.Greeter greet");
      // Columns are centred to their widest cell: a max of 10 ms or more widens "max".
      assert.match(count, /\| method \| total \| failed \| active \| average \| +max +\|/);
      assert.match(count, /\|\s+greet \|\s+[1-9]\d*\s+\|\s+0\s+\|\s+0\s+\|/);
      assert.equal(await telnet.send("offline com.example.Greeter"), "OK\r\ndubbo>");
      await waitFor("the consumer to lose the provider", () =>
        greeter.greet("b").then(
          () => false,
          () => true,
        ),
      );
      assert.match(await telnet.send("ls"), /\| com\.example\.Greeter:1\.0\.0 \| {2}N {2}\|/);
      assert.equal(await telnet.send("offline com.nothing.Here"), "service not found\r\ndubbo>");
      assert.equal(await telnet.send("online"), "OK\r\ndubbo>");
      await waitFor("the consumer to see the provider again", () =>
        greeter.greet("c").then(
          (a) => a === "hi c",
          () => false,
        ),
      );
      assert.deepEqual(
        providerCounts.filter((n, i) => n !== providerCounts[i - 1]),
        [1, 0, 1],
        "the consumer's monitor saw the registry notify the provider away and back",
      );
      const config = await telnet.send("getConfig RegistryConfig");
      assert.match(
        config,
        /^RegistryConfig: default\r\n\{.*"address":"dubbo:\/\/127\.0\.0\.1:\d+".*\}\r\n\r\ndubbo>$/,
      );
      assert.match(
        await telnet.send("getConfig ApplicationConfig"),
        /^ApplicationConfig: qos-provider\r\n\{.*"qosPort":0,.*"name":"qos-provider"\}\r\n\r\ndubbo>$/,
      );
      assert.equal(await telnet.send("nosuch"), "nosuch :no such command\r\ndubbo>");
      assert.equal(await telnet.send("quit"), "BYE!\n");
      await waitFor("the session to close", () => telnet.closed, 5000);
    } finally {
      await registry.stop();
    }
  });

  it("a QoS port in use is logged with advice; the application runs without it", async () => {
    await using first = await createDubbo({
      application: { name: "qos-a", qosPort: 0 },
      env: false,
      logger: quiet,
    });
    await first.start();
    const warnings: string[] = [];
    await using second = await createDubbo({
      application: { name: "qos-b", qosPort: first.qosPort },
      env: false,
      logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) },
    });
    await second.start();
    assert.equal(second.qosPort, 0);
    assert.match(
      warnings.join("\n"),
      new RegExp(`QoS port ${first.qosPort} could not be opened; .*qosEnable: false`),
    );
  });

  it("startup answers true once start() is done; the port closes with stop()", async () => {
    const app = await createDubbo({
      application: { name: "qos-stop", qosPort: 0 },
      env: false,
      logger: quiet,
    });
    await app.start();
    const port = app.qosPort;
    assert.deepEqual(await httpGet(port, "/startup"), { status: 200, body: "true" });
    await app.stop();
    await assert.rejects(httpGet(port, "/ready"));
  });
});
