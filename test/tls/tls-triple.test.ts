// The tri protocol over TLS (HTTP/2 with ALPN h2) with the protocol's `ssl` settings: a TLS
// consumer calls a TLS provider, mutual TLS refuses a consumer without a certificate, and a plain
// h2c consumer cannot call a TLS provider.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createDubbo, type DubboApplication } from "../../src/app/index.js";
import type { ProtocolSslConfig } from "../../src/config/index.js";
import { Code, defineService, java, RpcError, silentLogger } from "../../src/core/index.js";
import { createTestCertificates, type TestCertificates } from "./certificates.js";

const Greeter = defineService("com.example.tls.TriGreeter", {
  greet: { args: [java.String], returns: java.String },
});

describe("tls over tri", () => {
  let certs: TestCertificates;
  const apps: DubboApplication[] = [];
  before(async () => {
    certs = await createTestCertificates();
  });
  after(async () => {
    for (const app of apps) await app.stop();
    await certs.remove();
  });

  async function app(name: string, ssl?: ProtocolSslConfig): Promise<DubboApplication> {
    const created = await createDubbo({
      application: { name },
      logger: silentLogger,
      env: false,
      ...(ssl === undefined ? {} : { protocol: { name: "tri", host: "127.0.0.1", port: 0, ssl } }),
    });
    apps.push(created);
    return created;
  }

  async function tlsProvider(ssl: { caPath?: string } = {}): Promise<string> {
    const provider = await app("tri-tls-provider", {
      certPath: certs.serverCertPath,
      keyPath: certs.serverKeyPath,
      ...ssl,
    });
    const exported = await provider.export(
      Greeter,
      { greet: (name) => `hello ${name}` },
      { scope: "remote" },
    );
    assert.equal(exported.urls[0]!.get("ssl-enabled"), "true");
    return `tri://127.0.0.1:${exported.urls[0]!.port}`;
  }

  it("tls tri - a TLS consumer calls a TLS provider; a plain consumer cannot", async () => {
    const address = await tlsProvider();
    const consumer = await app("tri-tls-consumer");
    const greeter = await consumer.refer(Greeter, { url: address, ssl: { caPath: certs.caPath } });
    assert.equal(await greeter.greet("tls"), "hello tls");
    const plain = await consumer.refer(Greeter, { url: address, group: "plain", check: false, retries: 0 });
    await assert.rejects(
      plain.greet("h2c"),
      (e: unknown) => e instanceof RpcError && e.code === Code.Unavailable,
    );
  });

  it("tls tri - mutual TLS: a consumer with the client certificate is served, one without is refused", async () => {
    const address = await tlsProvider({ caPath: certs.caPath });
    const consumer = await app("tri-mtls-consumer");
    const withCert = await consumer.refer(Greeter, {
      url: address,
      ssl: { caPath: certs.caPath, certPath: certs.clientCertPath, keyPath: certs.clientKeyPath },
    });
    assert.equal(await withCert.greet("mtls"), "hello mtls");
    // TLS 1.3 completes the client's handshake before the server checks its certificate: the call fails.
    const noCert = await consumer.refer(Greeter, {
      url: address,
      group: "nocert",
      check: false,
      retries: 0,
      ssl: { caPath: certs.caPath },
    });
    await assert.rejects(
      noCert.greet("none"),
      (e: unknown) => e instanceof RpcError && e.code === Code.Unavailable,
    );
  });
});
