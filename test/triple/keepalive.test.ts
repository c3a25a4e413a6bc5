// Keepalive PINGs find a provider that stopped answering: through a TCP proxy that silently drops
// every byte, a call in flight fails with UNAVAILABLE once a PING goes unanswered for
// `close.timeout` (instead of waiting out its much longer deadline), and once the path works
// again the next call connects anew. For the tri protocol (wrapper mode, to our provider) and the
// IDL client (to a grpc-js server).
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Code, createProtoClient, defineService, java, RpcError, silentLogger } from "../../src/index.js";
import { GreeterService, startGreeterServers } from "./greeter-peers.js";
import { type PausableProxy, startPausableProxy } from "./tcp-proxy.js";
import { triApps } from "./tri-apps.js";

const Echo = defineService("org.apache.dubbo.demo.KeepaliveService", {
  echo: { args: [java.String], returns: java.String },
});

/** Far longer than the keepalive needs to notice (interval 100 ms, ack timeout 300 ms). */
const CALL_DEADLINE_MS = 20_000;

const apps = triApps();
const proxies: PausableProxy[] = [];
after(async () => {
  await apps.stopAll();
  for (const proxy of proxies) await proxy.close();
});

function assertPingFailure(error: unknown): true {
  assert.ok(error instanceof RpcError, String(error));
  assert.equal(error.code, Code.Unavailable, error.message);
  assert.match(error.message, /did not answer a PING within 300 ms \(close\.timeout\)/);
  return true;
}

describe("keepalive PINGs", () => {
  test("tri - a call to a provider that went silent fails with UNAVAILABLE, then the next call reconnects", async () => {
    const provider = await apps.provider("keepalive-provider");
    const exported = await provider.export(Echo, { echo: (text) => text }, { scope: "remote" });
    const proxy = await startPausableProxy(exported.urls[0]!.port);
    proxies.push(proxy);
    const consumer = await apps.consumer("keepalive-consumer");
    const stub = await consumer.refer(Echo, {
      url: `tri://127.0.0.1:${proxy.port}`,
      timeoutMs: CALL_DEADLINE_MS,
      retries: 0,
      parameters: { heartbeat: "100", "close.timeout": "300" },
    });
    assert.equal(await stub.echo("before"), "before");
    proxy.pause();
    await assert.rejects(stub.echo("into the void"), assertPingFailure);
    proxy.resume();
    assert.equal(await stub.echo("after"), "after");
    assert.equal(proxy.accepted, 2, "the second call came over a new connection");
  });

  test("tri - close.timeout under twice heartbeat is refused when the reference is made, as Java refuses it", async () => {
    const consumer = await apps.consumer("keepalive-misconfigured");
    await assert.rejects(
      consumer.refer(Echo, {
        url: "tri://127.0.0.1:1",
        parameters: { heartbeat: "100", "close.timeout": "150" },
      }),
      /close\.timeout \(150 ms\) must be at least twice heartbeat \(100 ms\)/,
    );
  });

  test("IDL - a call to a grpc-js server that went silent fails with UNAVAILABLE, then the next call reconnects", async () => {
    const servers = await startGreeterServers();
    const proxy = await startPausableProxy(Number(servers.grpcJs.address.split(":").pop()));
    proxies.push(proxy);
    const { client, close } = createProtoClient(GreeterService, {
      address: `127.0.0.1:${proxy.port}`,
      timeoutMs: CALL_DEADLINE_MS,
      heartbeatMs: 100,
      closeTimeoutMs: 300,
      logger: silentLogger,
    });
    try {
      assert.equal((await client.sayHello({ name: "ann" })).message, "hello ann from nobody");
      proxy.pause();
      await assert.rejects(client.sayHello({ name: "bob" }), assertPingFailure);
      proxy.resume();
      assert.equal((await client.sayHello({ name: "cid" })).message, "hello cid from nobody");
      assert.equal(proxy.accepted, 2, "the second call came over a new connection");
    } finally {
      await close();
      await servers.ours.close();
      servers.grpcJs.server.forceShutdown();
    }
  });
});
