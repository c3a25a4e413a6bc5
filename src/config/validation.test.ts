import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, defineService, java, RpcError } from "../core/index.js";
import { resolveDubboConfig } from "./index.js";

const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
});

/** Untyped input, as JavaScript callers and YAML produce it. */
function resolveUntyped(options: unknown): void {
  Reflect.apply(resolveDubboConfig, undefined, [options]);
}

const app = { application: { name: "demo" } };

const BAD_INPUTS: ReadonlyArray<{ name: string; options: unknown; mentions: readonly string[] }> = [
  {
    name: "wrong type",
    options: { ...app, consumer: { timeoutMs: "fast" } },
    mentions: ["consumer.timeoutMs", '"fast"', "an integer from 1 to 2147483647 (ms)"],
  },
  {
    name: "negative timeout on a reference",
    options: { ...app, references: { demo: { definition: DemoService, timeoutMs: -5 } } },
    mentions: ["references.demo.timeoutMs", "-5", "an integer from 1"],
  },
  {
    name: "Dubbo alias keeps the name the user wrote",
    options: { ...app, references: { demo: { interface: "a.B", methods: { sayHello: { timeout: 1.5 } } } } },
    mentions: ["references.demo.methods.sayHello.timeout", "1.5", "an integer"],
  },
  {
    name: "unknown scope",
    options: { ...app, services: { demo: { definition: DemoService, scope: "global" } } },
    mentions: ["services.demo.scope", '"global"', '"local", "remote", "none"'],
  },
  {
    name: "port out of range",
    options: { ...app, protocol: { port: 70000 } },
    mentions: ["protocol.port", "70000", "from 0 to 65535"],
  },
  {
    name: "unknown key with a suggestion",
    options: { ...app, consumer: { timout: 100 } },
    mentions: ["consumer.timout", 'did you mean "timeout"?', "accepted here:", "retries"],
  },
  {
    name: "boolean given as a word",
    options: { ...app, consumer: { check: "yes" } },
    mentions: ["consumer.check", '"yes"', "true or false"],
  },
  {
    name: "environment outside Java's set",
    options: { application: { name: "demo", environment: "prod" } },
    mentions: ["application.environment", '"prod"', '"develop", "test", "product"'],
  },
  {
    name: "missing application name",
    options: { application: {} },
    mentions: ["application.name is required", "DUBBO_APPLICATION_NAME"],
  },
  {
    name: "missing interface",
    options: { ...app, references: { demo: { timeoutMs: 10 } } },
    mentions: ["references.demo.interface is required", "defineService"],
  },
  {
    name: "interface contradicting the definition",
    options: { ...app, references: { demo: { interface: "x.Y", definition: DemoService } } },
    mentions: ["references.demo.interface", '"x.Y"', "org.apache.dubbo.demo.DemoService"],
  },
  {
    name: "method the contract lacks",
    options: {
      ...app,
      references: { demo: { definition: DemoService, methods: { sayHelo: { retries: 0 } } } },
    },
    mentions: ["references.demo.methods.sayHelo", 'did you mean "sayHello"?', "its methods: sayHello"],
  },
  {
    name: "registry id that is not configured",
    options: {
      ...app,
      registries: { zk: { address: "zookeeper://127.0.0.1:2181" } },
      consumer: { registries: ["zk2"] },
    },
    mentions: ["consumer.registries", '"zk2"', "configured: zk"],
  },
  {
    name: "bad registry address",
    options: { ...app, registry: { address: "zookeeper://127.0.0.1:99999" } },
    mentions: ["registries.default.address", "99999", "expected a registry address"],
  },
  {
    name: "bad direct url",
    options: { ...app, references: { demo: { definition: DemoService, url: "dubbo://h:port" } } },
    mentions: ["references.demo.url", '"dubbo://h:port"', "provider address"],
  },
  {
    name: "extension name with spaces",
    options: { ...app, consumer: { loadbalance: "round robin" } },
    mentions: ["consumer.loadbalance", '"round robin"', "a loadbalance extension name"],
  },
  {
    name: "a section that is not a mapping",
    options: { ...app, consumer: [1, 2] },
    mentions: ["consumer", "an array of 2", "a mapping of settings"],
  },
  {
    name: "unknown top-level section",
    options: { ...app, consumers: {} },
    mentions: ["consumers", 'did you mean "consumer"?'],
  },
  {
    name: "same setting under two names",
    options: { ...app, consumer: { timeout: 1, timeoutMs: 2 } },
    mentions: ["consumer.timeout and consumer.timeoutMs are the same setting"],
  },
  {
    name: "secret values are not echoed",
    options: { ...app, registry: { address: "zookeeper://h", password: ["x"] } },
    mentions: ["registry.password", "(hidden)"],
  },
];

describe("config validation", () => {
  for (const { name, options, mentions } of BAD_INPUTS) {
    it(`validation - ${name}: names the key, the value and what is accepted`, () => {
      assert.throws(
        () => resolveUntyped(options),
        (error: unknown) => {
          assert.ok(error instanceof RpcError, `expected an RpcError, got ${String(error)}`);
          assert.equal(error.code, Code.InvalidArgument);
          for (const text of mentions)
            assert.ok(error.message.includes(text), `"${text}" missing in: ${error.message}`);
          return true;
        },
      );
    });
  }

  it("validation - a valid configuration passes", () => {
    const config = resolveDubboConfig({
      ...app,
      registry: { address: "N/A" },
      references: { demo: { definition: DemoService, timeoutMs: 10 } },
    });
    assert.equal(config.references.demo?.timeoutMs, 10);
    assert.equal(config.references.toString, undefined, "id maps have no prototype");
  });
});
