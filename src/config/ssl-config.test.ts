import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defineService, java } from "../core/index.js";
import { consumerRegistrationUrl, urlToRegistry } from "../registry/protocol/registry-urls.js";
import { readEnvironment } from "./env-overrides.js";
import {
  resolveApplication,
  resolveConsumer,
  resolveProtocol,
  resolveReference,
  resolveService,
  toReferenceUrl,
  toServiceUrl,
} from "./index.js";
import { emptyTree } from "./options-tree.js";

const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
});
const RUNTIME = { timestamp: 1700000000000, pid: 4242, host: "10.0.0.5" };
const application = resolveApplication({ name: "node-demo" });

describe("config ssl", () => {
  it("protocol ssl - becomes ssl-enabled=true plus hidden file keys that registration strips", () => {
    const protocol = resolveProtocol({
      name: "dubbo",
      ssl: { certPath: "/etc/tls/server.pem", keyPath: "/etc/tls/server.key", caPath: "/etc/tls/ca.pem" },
    });
    const url = toServiceUrl(resolveService({ definition: DemoService }), protocol, application, RUNTIME);
    assert.equal(url.get("ssl-enabled"), "true");
    assert.equal(url.get(".ssl.cert-path"), "/etc/tls/server.pem");
    assert.equal(url.get(".ssl.key-path"), "/etc/tls/server.key");
    assert.equal(url.get(".ssl.ca-path"), "/etc/tls/ca.pem");
    const registered = urlToRegistry(url);
    assert.equal(registered.get("ssl-enabled"), "true");
    assert.equal(registered.toString().includes("/etc/tls"), false);
  });

  it("protocol ssl - false or absent leaves the URL as before", () => {
    for (const ssl of [false, undefined] as const) {
      const protocol = resolveProtocol(ssl === undefined ? { name: "dubbo" } : { name: "dubbo", ssl });
      const url = toServiceUrl(resolveService({ definition: DemoService }), protocol, application, RUNTIME);
      assert.equal(url.has("ssl-enabled"), false);
    }
  });

  it("protocol ssl - bad shapes fail naming the key", () => {
    assert.throws(
      () => resolveProtocol({ name: "dubbo", ssl: { certPath: "/a.pem" } as never }),
      /missing setting protocols\.dubbo\.ssl\.keyPath: a TLS server needs both certPath and keyPath/,
    );
    assert.throws(
      () => resolveProtocol({ name: "dubbo", ssl: { certPath: "/a", keyPath: "/b", clientAuth: true } }),
      /invalid setting protocols\.dubbo\.ssl\.clientAuth = true: expected false unless caPath/,
    );
    assert.throws(
      () => resolveProtocol({ name: "dubbo", ssl: { cert: "/a", keyPath: "/b" } as never }),
      /unknown setting protocols\.dubbo\.ssl\.cert; accepted here: caPath, certPath, clientAuth, keyPath/,
    );
    assert.throws(
      () => resolveProtocol({ name: "dubbo", ssl: { certPath: "/a&b", keyPath: "/b" } }),
      /protocols\.dubbo\.ssl\.certPath = "\/a&b": expected a file path without/,
    );
    assert.throws(
      () => resolveProtocol({ name: "dubbo", ssl: true as never }),
      /protocols\.dubbo\.ssl = true/,
    );
  });

  it("reference ssl - overrides the consumer's whole; false drops TLS settings without writing ssl-enabled=false", () => {
    const consumer = resolveConsumer({ ssl: { caPath: "/ca.pem", serverName: "demo.internal" } });
    const inherited = toReferenceUrl(
      resolveReference({ definition: DemoService }, { consumer }),
      application,
      RUNTIME,
    );
    assert.equal(inherited.get("ssl-enabled"), "true");
    assert.equal(inherited.get(".ssl.ca-path"), "/ca.pem");
    assert.equal(inherited.get(".ssl.server-name"), "demo.internal");
    const own = toReferenceUrl(
      resolveReference({ definition: DemoService, ssl: true }, { consumer }),
      application,
      RUNTIME,
    );
    assert.equal(own.get("ssl-enabled"), "true");
    assert.equal(own.has(".ssl.ca-path"), false, "the reference's ssl replaces the consumer's");
    const off = toReferenceUrl(
      resolveReference({ definition: DemoService, ssl: false }, { consumer }),
      application,
      RUNTIME,
    );
    // A provider that registered ssl-enabled=true must still win in the merged URL.
    assert.equal(off.has("ssl-enabled"), false);
    assert.equal(consumerRegistrationUrl(inherited).toString().includes(".ssl."), false);
  });

  it("reference ssl - a client certificate needs its key", () => {
    assert.throws(
      () => resolveReference({ definition: DemoService, ssl: { certPath: "/c.pem" } }),
      /missing setting references\.org\.apache\.dubbo\.demo\.DemoService\.ssl\.keyPath: a client certificate needs both/,
    );
    assert.throws(
      () => resolveConsumer({ ssl: { rejectUnauthorized: "no" as never } }),
      /invalid setting consumer\.ssl\.rejectUnauthorized = "no": expected true or false/,
    );
  });

  it("env - DUBBO_CONSUMER_SSL=false and DUBBO_PROTOCOL_SSL=false turn TLS off", () => {
    const tree = readEnvironment(
      { DUBBO_CONSUMER_SSL: "false", DUBBO_PROTOCOL_SSL: "false" },
      emptyTree(),
    ).tree;
    assert.equal(tree.consumer?.ssl, false);
    assert.equal(tree.protocols.dubbo?.ssl, false);
  });
});
