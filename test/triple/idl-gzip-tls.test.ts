// IDL mode with gzip and over TLS, against grpc-js both ways and against ourselves. Compression is
// seen on the wire: a TCP proxy counts the bytes of a 200 KB, highly compressible message.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { Code, createProtoClient, RpcError, silentLogger } from "../../src/index.js";
import { createTestCertificates, type TestCertificates } from "../tls/certificates.js";
import {
  type GreeterServers,
  GreeterService,
  grpcJsGreeterClient,
  startGreeterServers,
} from "./greeter-peers.js";
import { type PausableProxy, startPausableProxy } from "./tcp-proxy.js";

const NAME = "a".repeat(200_000);
/** Far below the 200 KB message: it crossed the wire compressed. */
const COMPRESSED_BYTES = 20_000;

const portOf = (address: string): number => Number(address.slice(address.lastIndexOf(":") + 1));

describe("IDL gzip", () => {
  let servers: GreeterServers;
  const proxies: PausableProxy[] = [];
  before(async () => {
    servers = await startGreeterServers();
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await servers.ours.close();
    servers.grpcJs.server.forceShutdown();
  });
  const proxyTo = async (address: string): Promise<PausableProxy> => {
    const proxy = await startPausableProxy(portOf(address));
    proxies.push(proxy);
    return proxy;
  };

  test("our client sends gzip when asked and grpc-js reads it; identity sends the message as it is", async () => {
    for (const compression of ["gzip", "identity"] as const) {
      const proxy = await proxyTo(servers.grpcJs.address);
      const { client, close } = createProtoClient(GreeterService, {
        address: `127.0.0.1:${proxy.port}`,
        compression,
        logger: silentLogger,
      });
      try {
        assert.equal((await client.sayHello({ name: NAME })).message, `hello ${NAME} from nobody`);
      } finally {
        await close();
      }
      if (compression === "gzip") assert.ok(proxy.forwarded.toServer < COMPRESSED_BYTES, compression);
      else assert.ok(proxy.forwarded.toServer > NAME.length, compression);
    }
  });

  test("a grpc-js client's gzip request reaches our server, which answers gzip since grpc-js accepts it", async () => {
    const proxy = await proxyTo(servers.ours.address);
    const client = grpcJsGreeterClient(`127.0.0.1:${proxy.port}`, {
      channel: { "grpc.default_compression_algorithm": 2 }, // gzip
    });
    try {
      const reply = await new Promise<{ message: string }>((resolve, reject) =>
        client.SayHello({ name: NAME }, (e: Error | null, r: { message: string }) =>
          e ? reject(e) : resolve(r),
        ),
      );
      assert.equal(reply.message, `hello ${NAME} from nobody`);
    } finally {
      client.close();
    }
    assert.ok(proxy.forwarded.toServer < COMPRESSED_BYTES, `request: ${proxy.forwarded.toServer} bytes`);
    assert.ok(proxy.forwarded.toClient < COMPRESSED_BYTES, `response: ${proxy.forwarded.toClient} bytes`);
  });

  test("our gzip client and our server: gzip both ways, streams too", async () => {
    const proxy = await proxyTo(servers.ours.address);
    const { client, close } = createProtoClient(GreeterService, {
      address: `127.0.0.1:${proxy.port}`,
      compression: "gzip",
      logger: silentLogger,
    });
    try {
      assert.equal((await client.sayHello({ name: NAME })).message, `hello ${NAME} from nobody`);
      const replies: string[] = [];
      for await (const reply of client.countdown({ name: NAME, count: 2 })) replies.push(reply.message);
      assert.deepEqual(replies, [`${NAME} 2`, `${NAME} 1`]);
    } finally {
      await close();
    }
    assert.ok(proxy.forwarded.toServer < COMPRESSED_BYTES, `requests: ${proxy.forwarded.toServer} bytes`);
    assert.ok(proxy.forwarded.toClient < COMPRESSED_BYTES, `responses: ${proxy.forwarded.toClient} bytes`);
  });

  test("an unknown compression fails the call naming the option", async () => {
    const { client, close } = createProtoClient(GreeterService, {
      address: servers.ours.address,
      compression: "br" as never,
      logger: silentLogger,
    });
    await assert.rejects(client.sayHello({ name: "x" }), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, Code.InvalidArgument);
      assert.match(error.message, /compression "br" is not one of identity, gzip/);
      return true;
    });
    await close();
  });
});

describe("IDL over TLS", () => {
  let certs: TestCertificates;
  let servers: GreeterServers;
  before(async () => {
    certs = await createTestCertificates();
    servers = await startGreeterServers({ certPath: certs.serverCertPath, keyPath: certs.serverKeyPath });
  });
  after(async () => {
    await servers.ours.close();
    servers.grpcJs.server.forceShutdown();
    await certs.remove();
  });

  test("a grpc-js TLS client calls our TLS server", async () => {
    const client = grpcJsGreeterClient(servers.ours.address, { caPem: readFileSync(certs.caPath) });
    try {
      const reply = await new Promise<{ message: string }>((resolve, reject) =>
        client.SayHello({ name: "tls" }, (e: Error | null, r: { message: string }) =>
          e ? reject(e) : resolve(r),
        ),
      );
      assert.equal(reply.message, "hello tls from nobody");
    } finally {
      client.close();
    }
  });

  test("our TLS client calls the grpc-js TLS server and ours", async () => {
    for (const address of [servers.grpcJs.address, servers.ours.address]) {
      const { client, close } = createProtoClient(GreeterService, {
        address,
        ssl: { caPath: certs.caPath },
        logger: silentLogger,
      });
      try {
        assert.equal((await client.sayHello({ name: "tls" })).message, "hello tls from nobody");
      } finally {
        await close();
      }
    }
  });

  test("a server certificate no trusted CA signed fails the call as UNAVAILABLE", async () => {
    const { client, close } = createProtoClient(GreeterService, {
      address: servers.ours.address,
      ssl: { caPath: certs.otherCaPath },
      logger: silentLogger,
    });
    await assert.rejects(client.sayHello({ name: "x" }), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, Code.Unavailable);
      assert.match(error.message, /cannot connect to the triple provider/);
      return true;
    });
    await close();
  });

  test("a missing certificate file fails createProtoServer naming the setting", async () => {
    await assert.rejects(
      import("../../src/index.js").then((m) =>
        m.createProtoServer({
          port: 0,
          ssl: { certPath: `${certs.dir}/missing.pem`, keyPath: certs.serverKeyPath },
        }),
      ),
      /cannot read the TLS certificate file ".*missing\.pem" \(ENOENT; set ssl\.certPath\)/,
    );
  });
});
