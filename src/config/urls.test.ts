import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defineService, java, Url } from "../core/index.js";
import {
  resolveApplication,
  resolveProtocol,
  resolveProvider,
  resolveRegistry,
  resolveService,
  toRegistryUrls,
  toServiceUrl,
} from "./index.js";

const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
  sayHelloAsync: { args: [java.String], returns: java.String },
});

const RUNTIME = { timestamp: 1700000000000, pid: 4242, host: "10.0.0.5" };

// "tracing" stands for a filter an application registers itself.
declare module "./extension-name-types.js" {
  interface CustomExtensions {
    tracing: "filter";
  }
}

describe("config urls", () => {
  it("toServiceUrl - matches the provider URL a Java 2.7 consumer expects, without version/group when unset", () => {
    const url = toServiceUrl(
      resolveService({ definition: DemoService }),
      resolveProtocol(),
      resolveApplication({ name: "node-demo" }),
      RUNTIME,
    );
    assert.equal(
      url.toString(),
      "dubbo://10.0.0.5:20880/org.apache.dubbo.demo.DemoService?anyhost=true&application=node-demo&deprecated=false&dubbo=2.0.2&dynamic=true&generic=false&interface=org.apache.dubbo.demo.DemoService&methods=sayHello,sayHelloAsync&pid=4242&release=2.7.23&side=provider&timestamp=1700000000000",
    );
    assert.equal(url.has("version"), false);
    assert.equal(url.has("group"), false);
    // Same string after a ZooKeeper round trip.
    assert.equal(Url.decode(url.encode()).toString(), url.toString());
  });

  it("toServiceUrl - carries explicit settings of every layer, method-level keys included", () => {
    const provider = resolveProvider({ timeoutMs: 2000, filters: ["tracing"] });
    const service = resolveService(
      {
        definition: DemoService,
        version: "1.0.0",
        group: "blue",
        weight: 200,
        token: "secret",
        methods: { sayHello: { timeoutMs: 500, oneway: true } },
      },
      { provider },
    );
    const protocol = resolveProtocol({ host: "192.168.1.7", port: 20881, threads: 50 });
    const url = toServiceUrl(service, protocol, resolveApplication({ name: "p", owner: "team" }), RUNTIME);
    assert.equal(url.address, "192.168.1.7:20881");
    assert.equal(url.get("anyhost"), "false");
    assert.equal(url.get("version"), "1.0.0");
    assert.equal(url.get("group"), "blue");
    assert.equal(url.get("timeout"), "2000");
    assert.equal(url.get("service.filter"), "tracing");
    assert.equal(url.get("weight"), "200");
    assert.equal(url.get("token"), "secret");
    assert.equal(url.get("threads"), "50");
    assert.equal(url.get("owner"), "team");
    assert.equal(url.get("sayHello.timeout"), "500");
    assert.equal(url.get("sayHello.return"), "false");
    assert.equal(url.serviceKey, "blue/org.apache.dubbo.demo.DemoService:1.0.0");
    assert.equal(url.has("warmup"), false, "defaults are not registered");
  });

  it("toServiceUrl - token true generates one per export", () => {
    const service = resolveService({ definition: DemoService, token: true });
    const url = toServiceUrl(service, resolveProtocol(), resolveApplication({ name: "p" }), {
      ...RUNTIME,
      newToken: () => "generated",
    });
    assert.equal(url.get("token"), "generated");
  });

  it("toRegistryUrls - one URL per registry with its connection settings", () => {
    const urls = toRegistryUrls(
      resolveRegistry({
        address: "zookeeper://10.0.0.1:2181,10.0.0.2:2181",
        sessionMs: 30000,
        group: "prod",
      }),
      resolveApplication({ name: "p" }),
      RUNTIME,
    );
    assert.equal(urls.length, 1);
    const url = urls[0];
    assert.ok(url);
    assert.equal(url.protocol, "zookeeper");
    assert.equal(url.path, "org.apache.dubbo.registry.RegistryService");
    assert.equal(url.get("backup"), "10.0.0.2:2181");
    assert.equal(url.get("session"), "30000");
    assert.equal(url.get("timeout"), "5000");
    assert.equal(url.get("group"), "prod");
    assert.equal(url.get("application"), "p");
  });
});
