import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Code, defineService, java, RpcError } from "../core/index.js";
import { loadConfig, loadConfigFile } from "./index.js";

const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
});

const DUBBO_YAML = `
dubbo:
  application:
    name: yaml-app
    owner: ops
  registry:
    address: zookeeper://127.0.0.1:2181
    timeout: 4000
  protocol:
    name: dubbo
    port: 20881
    shutdown.wait: 3000
  consumer:
    timeout: 3000
    retries: 1
  references:
    demoService:
      interface: org.apache.dubbo.demo.DemoService
      version: 2
      loadbalance: roundrobin
      methods:
        sayHello:
          timeout: 700
`;

let dir = "";
async function writeYaml(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

function rejectsWith(mentions: readonly string[]): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof RpcError, `expected an RpcError, got ${String(error)}`);
    for (const text of mentions)
      assert.ok(error.message.includes(text), `"${text}" missing in: ${error.message}`);
    return true;
  };
}

describe("config loading", () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "dubbo-ts-config-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("loadConfig - reads dubbo.yaml with Dubbo's names", async () => {
    const config = await loadConfig({ file: await writeYaml("dubbo.yaml", DUBBO_YAML) });
    assert.equal(config.application.name, "yaml-app");
    assert.equal(config.registries.default?.timeoutMs, 4000);
    assert.equal(config.protocols.dubbo?.port, 20881);
    assert.equal(config.protocols.dubbo?.shutdownWaitMs, 3000);
    const reference = config.references.demoService;
    assert.ok(reference);
    assert.equal(reference.version, "2", "YAML reads 2 as a number; it becomes the text Java compares");
    assert.equal(reference.timeoutMs, 3000, "consumer default from the file");
    assert.equal(reference.methods.sayHello?.timeoutMs, 700);
  });

  it("loadConfig - environment over code over file, as Java's -D over API over dubbo.properties", async () => {
    const config = await loadConfig({
      file: await writeYaml("precedence.yaml", DUBBO_YAML),
      env: {
        DUBBO_APPLICATION_NAME: "env-app",
        DUBBO_REGISTRY_ADDRESS: "zookeeper://10.0.0.1:2181",
        DUBBO_PROTOCOL_PORT: "20999",
        DUBBO_CONSUMER_TIMEOUT: "5000",
        DUBBO_CONSUMER_RETRIES: "4",
        DUBBO_CONSUMER_LAZY: "true",
        DUBBO_REFERENCES_DEMO_SERVICE_LOADBALANCE: "leastactive",
        DUBBO_REFERENCES_DEMOSERVICE_METHODS_SAY_HELLO_TIMEOUT: "800",
        DUBBO_TS_TEST: "1",
        DUBBO_IP_TO_REGISTRY: "10.9.9.9",
        PATH: "/usr/bin",
      },
      overrides: {
        consumer: { retries: 0, lazy: false, sticky: true },
        references: { demoService: { definition: DemoService } },
      },
    });
    assert.equal(config.application.name, "env-app");
    assert.equal(config.application.owner, "ops", "untouched file settings stay");
    assert.equal(config.registries.default?.endpoints[0]?.host, "10.0.0.1");
    assert.equal(config.registries.default?.timeoutMs, 4000, "env changes only the key it names");
    assert.equal(config.protocols.dubbo?.port, 20999);
    assert.equal(config.consumer.timeoutMs, 5000, "env over file");
    assert.equal(config.consumer.retries, 4, "env over code");
    assert.equal(config.consumer.lazy, true, "env over code");
    assert.equal(config.consumer.sticky, true, "code over file");
    assert.equal(config.protocols.dubbo?.registerHost, "10.9.9.9", "Java's DUBBO_IP_TO_REGISTRY");
    const reference = config.references.demoService;
    assert.ok(reference);
    assert.equal(reference.loadbalance, "leastactive");
    assert.equal(reference.methods.sayHello?.timeoutMs, 800);
    assert.equal(reference.definition, DemoService, "code adds the contract to the file's reference");
  });

  it("loadConfig - a bad environment value names the variable and what is accepted", async () => {
    const file = await writeYaml("env-bad.yaml", DUBBO_YAML);
    await assert.rejects(
      loadConfig({ file, env: { DUBBO_CONSUMER_TIMEOUT: "-1" } }),
      rejectsWith(["DUBBO_CONSUMER_TIMEOUT", '"-1"', "an integer from 1"]),
    );
  });

  it("loadConfig - a variable that sets nothing warns once (with a suggestion) and never fails", async () => {
    const warnings: string[] = [];
    const config = await loadConfig({
      file: await writeYaml("env-unknown.yaml", DUBBO_YAML),
      env: {
        DUBBO_CONSUMER_TIMOUT: "100",
        // What Kubernetes injects for Services named dubbo-registry and dubbo.
        DUBBO_REGISTRY_SERVICE_HOST: "10.96.0.12",
        DUBBO_REGISTRY_SERVICE_PORT: "2181",
        DUBBO_REGISTRY_PORT: "tcp://10.96.0.12:2181",
        DUBBO_REGISTRY_PORT_2181_TCP_ADDR: "10.96.0.12",
        DUBBO_SERVICE_HOST: "10.96.0.13",
        DUBBO_PORT: "tcp://10.96.0.13:20880",
        DUBBO_TS_TEST: "1",
        // An id no entry has yet: it waits for app.refer({ id: "other" }), silently.
        DUBBO_REFERENCES_OTHER_TIMEOUT: "100",
        // The logger's debug categories: read by createDubbo, not a setting, never a warning.
        DUBBO_TRACE: "registry",
      },
      warn: (message) => warnings.push(message),
    });
    assert.equal(config.consumer.timeoutMs, 3000, "the misspelt variable changed nothing");
    assert.equal(new Set(warnings).size, warnings.length, `each warning once: ${warnings.join("\n")}`);
    for (const name of [
      "DUBBO_CONSUMER_TIMOUT",
      "DUBBO_REGISTRY_SERVICE_HOST",
      "DUBBO_REGISTRY_PORT",
      "DUBBO_REGISTRY_PORT_2181_TCP_ADDR",
      "DUBBO_SERVICE_HOST",
      "DUBBO_PORT",
      "DUBBO_TS_TEST",
    ]) {
      assert.ok(
        warnings.some(
          (w) =>
            w.startsWith(`environment variable ${name} `) || w.startsWith(`environment variable ${name}:`),
        ),
        `${name} warned: ${warnings.join("\n")}`,
      );
    }
    assert.ok(warnings.some((w) => w.includes("did you mean DUBBO_CONSUMER_TIMEOUT?")));
    assert.ok(!warnings.some((w) => w.includes("DUBBO_REFERENCES_OTHER_TIMEOUT")));
    assert.ok(!warnings.some((w) => w.includes("DUBBO_TRACE")));
  });

  it("loadConfigFile - an unknown key gets a suggestion and the file's name", async () => {
    const path = await writeYaml("typo.yaml", "dubbo:\n  consumer:\n    loadbalanse: random\n");
    await assert.rejects(
      loadConfigFile(path),
      rejectsWith([path, "dubbo.consumer.loadbalanse", 'did you mean "loadbalance"?']),
    );
  });

  it("loadConfigFile - numbers keep the text they were written with", async () => {
    const path = await writeYaml(
      "version.yaml",
      "dubbo:\n  provider:\n    version: 1.0\n  consumer:\n    timeout: 0x10\n",
    );
    await assert.rejects(
      loadConfigFile(path),
      rejectsWith(["dubbo.consumer.timeout", '"0x10"', "an integer"]),
    );
    const ok = await loadConfigFile(
      await writeYaml("version-ok.yaml", "dubbo:\n  provider:\n    version: 1.0\n"),
    );
    assert.equal(ok.provider?.version, "1.0", "not 1: Java compares versions as text");
  });

  it("loadConfigFile - __proto__ keys are rejected and pollute nothing", async () => {
    for (const [name, text] of [
      ["proto-setting.yaml", "dubbo:\n  consumer:\n    __proto__:\n      polluted: true\n"],
      ["proto-id.yaml", "dubbo:\n  references:\n    __proto__:\n      interface: a.B\n"],
      ["proto-params.yaml", "dubbo:\n  provider:\n    parameters:\n      constructor: x\n"],
    ] as const) {
      await assert.rejects(
        loadConfigFile(await writeYaml(name, text)),
        rejectsWith(["__proto__, constructor and prototype"]),
      );
    }
    assert.equal(Reflect.get({}, "polluted"), undefined);
  });

  it("loadConfigFile - malformed YAML, a missing dubbo: root and a missing file fail clearly", async () => {
    await assert.rejects(
      loadConfigFile(await writeYaml("broken.yaml", "dubbo:\n  consumer: [\n")),
      rejectsWith(["broken.yaml is not valid YAML"]),
    );
    await assert.rejects(
      loadConfigFile(await writeYaml("noroot.yaml", "dubo:\n  consumer: {}\n")),
      rejectsWith(['no top-level "dubbo:"', 'did you mean "dubbo" instead of "dubo"?']),
    );
    await assert.rejects(loadConfigFile(join(dir, "absent.yaml")), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, Code.NotFound);
      assert.ok(error.message.includes("absent.yaml"));
      return true;
    });
    await assert.rejects(
      loadConfigFile(await writeYaml("dup.yaml", "dubbo:\n  consumer: {}\n  consumer: {}\n")),
      rejectsWith(["dup.yaml is not valid YAML"]),
    );
  });
});
