import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type AppLogger, createDubbo } from "../../src/app/index.js";
import { Code, defineService, java, RpcError, silentLogger } from "../../src/core/index.js";
import { urlToRegistry } from "../../src/registry/protocol/registry-urls.js";
import { createTestCertificates, type TestCertificates } from "./certificates.js";

const Greeter = defineService("com.example.tls.Greeter", {
  greet: { args: [java.String], returns: java.String },
});
const impl = { greet: (name: string) => `hello ${name}` };

/** Handshake failures are logged by design; keep them out of the test output. */
const quiet: AppLogger = silentLogger;

function isRpcError(code: Code, pattern: RegExp): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof RpcError, `expected an RpcError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, pattern);
    return true;
  };
}

describe("tls", () => {
  let certs: TestCertificates;
  before(async () => {
    certs = await createTestCertificates();
  });
  after(async () => {
    await certs.remove();
  });

  async function tlsProvider(ssl: { caPath?: string; clientAuth?: boolean } = {}) {
    const app = await createDubbo({
      application: { name: "tls-provider" },
      protocol: {
        name: "dubbo",
        host: "127.0.0.1",
        port: 0,
        ssl: { certPath: certs.serverCertPath, keyPath: certs.serverKeyPath, ...ssl },
      },
      logger: quiet,
      env: false,
    });
    const exported = await app.export(Greeter, impl, { scope: "remote" });
    return { app, url: exported.urls[0]!, address: `dubbo://127.0.0.1:${exported.urls[0]!.port}` };
  }

  async function consumerApp() {
    return createDubbo({ application: { name: "tls-consumer" }, logger: quiet, env: false });
  }

  it("tls - a TLS consumer calls a TLS provider over 127.0.0.1; registries see ssl-enabled, never the file paths", async () => {
    const provider = await tlsProvider();
    await using _p = provider.app;
    await using consumer = await consumerApp();
    const greeter = await consumer.refer(Greeter, { url: provider.address, ssl: { caPath: certs.caPath } });
    assert.equal(await greeter.greet("tls"), "hello tls");
    assert.equal(provider.url.get("ssl-enabled"), "true");
    const registered = urlToRegistry(provider.url);
    assert.equal(registered.get("ssl-enabled"), "true");
    assert.deepEqual(
      [...registered.params.keys()].filter((k) => k.includes("ssl.")),
      [],
      "certificate paths stay off the registered URL",
    );
  });

  it("tls - consumer defaults apply, and a provider URL's ssl-enabled=true alone switches TLS on", async () => {
    const provider = await tlsProvider();
    await using _p = provider.app;
    await using withDefaults = await createDubbo({
      application: { name: "tls-consumer" },
      consumer: { ssl: { caPath: certs.caPath } },
      logger: quiet,
      env: false,
    });
    const greeter = await withDefaults.refer(Greeter, { url: provider.address });
    assert.equal(await greeter.greet("defaults"), "hello defaults");
    // No `ssl` of its own: the provider's registered ssl-enabled=true makes it speak TLS, trusting
    // Node's bundled CAs, which do not include the test CA, so verification (not framing) fails.
    await using bare = await consumerApp();
    await assert.rejects(
      bare.refer(Greeter, { url: `${provider.address}?ssl-enabled=true` }),
      isRpcError(Code.Unavailable, /certificate/),
    );
  });

  it("tls - a consumer trusting another CA rejects the provider's certificate", async () => {
    const provider = await tlsProvider();
    await using _p = provider.app;
    await using consumer = await consumerApp();
    await assert.rejects(
      consumer.refer(Greeter, { url: provider.address, ssl: { caPath: certs.otherCaPath } }),
      isRpcError(Code.Unavailable, /127\.0\.0\.1:\d+.*certificate/),
    );
  });

  it("tls - a plain consumer against a TLS provider fails fast with a connection error, not a timeout", async () => {
    const provider = await tlsProvider();
    await using _p = provider.app;
    await using consumer = await consumerApp();
    const greeter = await consumer.refer(Greeter, {
      url: provider.address,
      cluster: "failfast",
      timeoutMs: 30_000,
    });
    await assert.rejects(
      greeter.greet("plain"),
      isRpcError(Code.Unavailable, /connection to 127\.0\.0\.1:\d+ closed/),
    );
  });

  it("tls - a TLS and a plain reference to one address never share a connection", async () => {
    await using plainProvider = await createDubbo({
      application: { name: "plain-provider" },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
      logger: quiet,
      env: false,
    });
    const port = (await plainProvider.export(Greeter, impl, { scope: "remote" })).urls[0]!.port;
    await using consumer = await consumerApp();
    const plain = await consumer.refer(Greeter, { url: `dubbo://127.0.0.1:${port}` });
    assert.equal(await plain.greet("plain"), "hello plain");
    // Sharing the plain link would make this reference work; its own TLS link cannot handshake.
    await assert.rejects(
      consumer.refer(Greeter, {
        url: `dubbo://127.0.0.1:${port}`,
        group: "tls",
        ssl: { caPath: certs.caPath },
      }),
      isRpcError(Code.Unavailable, /no provider of .* is reachable: 127\.0\.0\.1:\d+/),
    );
    assert.equal(await plain.greet("still plain"), "hello still plain");
  });

  it("tls - mutual TLS serves a client with a certificate and rejects one without", async () => {
    const provider = await tlsProvider({ caPath: certs.caPath });
    await using _p = provider.app;
    await using consumer = await consumerApp();
    const withCert = await consumer.refer(Greeter, {
      url: provider.address,
      ssl: { caPath: certs.caPath, certPath: certs.clientCertPath, keyPath: certs.clientKeyPath },
    });
    assert.equal(await withCert.greet("mutual"), "hello mutual");
    await assert.rejects(
      consumer.refer(Greeter, { url: provider.address, group: "nocert", ssl: { caPath: certs.caPath } }),
      isRpcError(Code.Unavailable, /certificate required/),
    );
  });

  it("tls - a missing certificate file fails export and refer, naming the file and the setting", async () => {
    const missing = join(certs.dir, "missing.pem");
    await using provider = await createDubbo({
      application: { name: "tls-provider" },
      protocol: {
        name: "dubbo",
        host: "127.0.0.1",
        port: 0,
        ssl: { certPath: missing, keyPath: certs.serverKeyPath },
      },
      logger: quiet,
      env: false,
    });
    await assert.rejects(
      provider.export(Greeter, impl, { scope: "remote" }),
      isRpcError(
        Code.FailedPrecondition,
        /cannot export .*Greeter.*TLS certificate file ".*missing\.pem" \(ENOENT; set ssl\.certPath\)/,
      ),
    );
    await using consumer = await consumerApp();
    await assert.rejects(
      consumer.refer(Greeter, { url: "dubbo://127.0.0.1:1", ssl: { caPath: missing } }),
      isRpcError(
        Code.FailedPrecondition,
        /cannot refer to .*Greeter.*TLS CA file ".*missing\.pem" \(ENOENT; set ssl\.caPath\)/,
      ),
    );
  });

  it("tls - a key that does not match its certificate fails the export, naming both files", async () => {
    await using provider = await createDubbo({
      application: { name: "tls-provider" },
      protocol: {
        name: "dubbo",
        host: "127.0.0.1",
        port: 0,
        ssl: { certPath: certs.serverCertPath, keyPath: certs.clientKeyPath },
      },
      logger: quiet,
      env: false,
    });
    await assert.rejects(
      provider.export(Greeter, impl, { scope: "remote" }),
      isRpcError(Code.FailedPrecondition, /ssl\.certPath ".*server\.pem", ssl\.keyPath ".*client\.key"/),
    );
  });
});
