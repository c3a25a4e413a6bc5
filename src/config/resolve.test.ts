import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DEFAULT_CLUSTER,
  DEFAULT_DUBBO_PORT,
  DEFAULT_LOADBALANCE,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_WEIGHT,
  defineService,
  java,
} from "../core/index.js";
import { resolveApplication } from "./application-config.js";
import {
  collectExtensionNames,
  resolveConsumer,
  resolveDubboConfig,
  resolveProtocol,
  resolveProvider,
  resolveReference,
  resolveRegistry,
  resolveService,
  toReferenceUrl,
} from "./index.js";

const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
  sayBye: { args: [java.String], returns: java.String },
});

// "tracing" stands for a filter an application registers itself.
declare module "./extension-name-types.js" {
  interface CustomExtensions {
    tracing: "filter";
  }
}

describe("config resolve", () => {
  it("resolve - fills Dubbo's defaults and freezes the result", () => {
    const consumer = resolveConsumer();
    assert.equal(consumer.timeoutMs, DEFAULT_TIMEOUT_MS);
    assert.equal(consumer.retries, DEFAULT_RETRIES);
    assert.equal(consumer.loadbalance, DEFAULT_LOADBALANCE);
    assert.equal(consumer.cluster, DEFAULT_CLUSTER);
    assert.equal(consumer.check, true);
    assert.deepEqual(consumer.given, {});
    assert.ok(Object.isFrozen(consumer));

    const protocol = resolveProtocol();
    assert.equal(protocol.name, "dubbo");
    assert.equal(protocol.port, DEFAULT_DUBBO_PORT);
    assert.equal(protocol.payloadBytes, DEFAULT_PAYLOAD_BYTES);
    assert.equal(resolveProtocol({ name: "injvm" }).port, 0);

    const service = resolveService({ definition: DemoService });
    assert.equal(service.id, "org.apache.dubbo.demo.DemoService");
    assert.equal(service.weight, DEFAULT_WEIGHT);
    assert.equal(service.dynamic, true);
    assert.deepEqual(service.methodNames, ["sayBye", "sayHello"]);
  });

  it("resolve - never mutates its input", () => {
    const options = { timeout: 3000, methods: { sayHello: { retries: 0 } } };
    const copy = structuredClone(options);
    resolveReference({ ...options, definition: DemoService });
    assert.deepEqual(options, copy);
  });

  it("layering - method over reference over consumer over defaults", () => {
    const consumer = resolveConsumer({ timeoutMs: 3000, retries: 1, loadbalance: "roundrobin" });
    const reference = resolveReference(
      { definition: DemoService, retries: 5, methods: { sayHello: { timeoutMs: 500 } } },
      { id: "demo", consumer },
    );
    assert.equal(reference.timeoutMs, 3000, "consumer default");
    assert.equal(reference.retries, 5, "reference over consumer");
    assert.equal(reference.loadbalance, "roundrobin");
    assert.equal(reference.cluster, DEFAULT_CLUSTER, "Dubbo default");
    const sayHello = reference.methods.sayHello;
    assert.ok(sayHello);
    assert.equal(sayHello.timeoutMs, 500, "method over everything");
    assert.equal(sayHello.retries, 5, "method inherits the reference");
    assert.equal(reference.methods.sayBye, undefined, "unconfigured methods use the reference's settings");

    const url = toReferenceUrl(reference, resolveApplication({ name: "demo-consumer" }), {
      timestamp: 1,
      pid: 2,
      host: "10.0.0.9",
    });
    assert.equal(url.get("timeout"), "3000");
    assert.equal(url.get("retries"), "5");
    assert.equal(url.get("sayHello.timeout"), "500");
    assert.equal(url.methodNumber("sayHello", "timeout", 0), 500);
    assert.equal(url.methodNumber("sayBye", "timeout", 0), 3000);
    assert.equal(url.get("cluster"), undefined, "unset settings stay off so the provider's apply");
    assert.equal(url.toString().startsWith("consumer://10.0.0.9/org.apache.dubbo.demo.DemoService?"), true);
    assert.equal(url.get("side"), "consumer");
    assert.equal(url.get("methods"), "sayBye,sayHello");
  });

  it("layering - service over provider; provider values reach the URL's given settings", () => {
    const provider = resolveProvider({ timeoutMs: 2000, weight: 50, version: "1.0.0" });
    const service = resolveService({ definition: DemoService, weight: 200 }, { provider });
    assert.equal(service.timeoutMs, 2000);
    assert.equal(service.weight, 200);
    assert.equal(service.version, "1.0.0");
    assert.deepEqual({ ...service.given }, { timeoutMs: 2000, weight: 200, version: "1.0.0" });
  });

  it("methods - Java's list form equals the map form, and the result is frozen", () => {
    const listed = resolveReference({ definition: DemoService, methods: [{ name: "sayHello", retries: 0 }] });
    const keyed = resolveReference({ definition: DemoService, methods: { sayHello: { retries: 0 } } });
    assert.equal(listed.methods.sayHello?.retries, 0);
    assert.deepEqual(listed.methods, keyed.methods);
    assert.ok(Object.isFrozen(listed.methods) && Object.isFrozen(listed.methods.sayHello));
    assert.throws(
      () => resolveReference({ definition: DemoService, methods: [{ retries: 0 }] }),
      /methods\[0\]\.name = undefined: expected a Java method name/,
    );
  });

  it("reference - direct urls split on ; and , get the interface path and default port", () => {
    const reference = resolveReference({
      interface: "com.foo.Bar",
      url: "dubbo://10.0.0.1:20881;10.0.0.2,dubbo://10.0.0.3:1/x.Y?serialization=hessian2",
    });
    assert.deepEqual(
      reference.urls.map((u) => u.toString()),
      [
        "dubbo://10.0.0.1:20881/com.foo.Bar",
        "dubbo://10.0.0.2:20880/com.foo.Bar",
        "dubbo://10.0.0.3:1/x.Y?serialization=hessian2",
      ],
    );
    assert.equal(resolveReference({ interface: "com.foo.Bar", injvm: true }).scope, "local");
  });

  it("registry - parses cluster addresses into host plus backup, and N/A as disabled", () => {
    const zk = resolveRegistry({ address: "zookeeper://10.0.0.1:2181,10.0.0.2:2181?backup=10.0.0.3:2181" });
    assert.equal(zk.endpoints.length, 1);
    const endpoint = zk.endpoints[0];
    assert.ok(endpoint);
    assert.equal(endpoint.protocol, "zookeeper");
    assert.equal(endpoint.address, "10.0.0.1:2181");
    assert.equal(endpoint.get("backup"), "10.0.0.3:2181,10.0.0.2:2181");
    assert.equal(resolveRegistry({ address: "127.0.0.1", protocol: "zookeeper" }).endpoints[0]?.port, 2181);
    assert.equal(resolveRegistry({ address: "zookeeper://a:1|zookeeper://b:2" }).endpoints.length, 2);
    const none = resolveRegistry({ address: "N/A" });
    assert.equal(none.disabled, true);
    assert.equal(none.endpoints.length, 0);
  });

  it("collectExtensionNames - lists every extension name with the setting that names it", () => {
    const config = resolveDubboConfig({
      application: { name: "demo" },
      registry: { address: "zookeeper://127.0.0.1:2181" },
      consumer: { filters: ["-accesslog", "default", "tracing"] },
      references: {
        demo: {
          definition: DemoService,
          cluster: "failfast",
          methods: { sayHello: { loadbalance: "leastactive" } },
        },
      },
    });
    const uses = collectExtensionNames(config).map((u) => `${u.point}:${u.name}@${u.setting}`);
    for (const expected of [
      "registry:zookeeper@registries.default.address",
      "protocol:dubbo@protocols.dubbo.name",
      "serialization:hessian2@protocols.dubbo.serialization",
      "filter:tracing@consumer.filters",
      "cluster:failfast@references.demo.cluster",
      "loadbalance:leastactive@references.demo.methods.sayHello.loadbalance",
    ]) {
      assert.ok(uses.includes(expected), `${expected} in ${uses.join(" ")}`);
    }
    assert.ok(!uses.some((u) => u.startsWith("filter:accesslog") || u.startsWith("filter:default")));
  });
});
