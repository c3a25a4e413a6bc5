// Configuration as Java teams bring it: a Spring Boot `dubbo:` YAML, Java's environment variables,
// settings for services and references made in code matched by interface name or id.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { defineService, java, RpcError } from "../core/index.js";
import {
  type LoadConfigOptions,
  loadConfigLayers,
  resolveReferenceEntry,
  resolveServiceEntry,
  toServiceUrl,
} from "./index.js";

const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
  sayHello: { args: [java.String], returns: java.String },
});
const GreetingService = defineService("org.apache.dubbo.demo.GreetingService", {
  greet: { args: [java.String], returns: java.String },
});
const RUNTIME = { timestamp: 1, pid: 7, host: "10.0.0.5" } as const;

let dir = "";
async function load(yaml: string | undefined, options: Omit<LoadConfigOptions, "file"> = {}) {
  const warnings: string[] = [];
  let file: string | undefined;
  if (yaml !== undefined) {
    file = join(dir, `dubbo-${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(file, yaml);
  }
  const loaded = await loadConfigLayers({
    ...options,
    ...(file === undefined ? {} : { file }),
    warn: (message) => warnings.push(message),
  });
  return { ...loaded, warnings };
}

/** The ```yaml block under the README's "A Java team's dubbo.yaml" heading. */
async function readmeYaml(): Promise<string> {
  const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("### A Java team's dubbo.yaml"));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  assert.ok(block?.[1], "the README has the example dubbo.yaml");
  return block[1];
}

describe("configuration from Java teams", () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "dubbo-ts-java-config-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("spring boot yaml - the README's example loads with Java's keys mapped to ours", async () => {
    const { config, layers, warnings } = await load(await readmeYaml());
    assert.equal(config.application.name, "demo-provider");
    assert.equal(config.application.owner, "payments-team");
    const registry = config.registries.default;
    assert.equal(registry?.timeoutMs, 10000);
    assert.equal(registry?.endpoints[0]?.address, "127.0.0.1:2181");
    assert.equal(registry?.endpoints[0]?.get("backup"), "127.0.0.1:2182,127.0.0.1:2183");
    assert.equal(config.protocols.dubbo?.port, 0, "port -1 is any free port");
    assert.equal(config.provider.timeoutMs, 3000);
    assert.equal(config.provider.retries, 0);
    assert.equal(config.consumer.check, false);
    assert.equal(config.consumer.shareConnections, 2);
    const service = resolveServiceEntry(
      layers,
      config,
      { interfaceName: DemoService.interfaceName },
      {
        definition: DemoService,
        ref: { sayHello: (name: string) => name },
      },
    );
    assert.equal(service.version, "1.0.0");
    assert.equal(service.weight, 200);
    assert.equal(service.timeoutMs, 3000, "provider default");
    const reference = resolveReferenceEntry(
      layers,
      config,
      { interfaceName: GreetingService.interfaceName },
      {
        definition: GreetingService,
      },
    );
    assert.equal(reference.timeoutMs, 5000);
    assert.equal(reference.methods.greet?.retries, 1);
    assert.equal(warnings.length, 2, warnings.join("\n"));
    assert.ok(warnings.some((w) => w.includes("dubbo.application.logger has no effect")));
    assert.ok(warnings.some((w) => w.includes("dubbo.scan configures what dubbo-ts does not have")));
    assert.ok(warnings.every((w) => w.includes("ignored")));
  });

  it("spring boot yaml - kebab-case and camelCase, registries.<id> and protocols.<id>, Java-only keys warn once", async () => {
    const { config, warnings } = await load(
      [
        "dubbo:",
        "  application: { name: a, qos-enable: false, qos-port: 33333, qos-accept-foreign-ip: true, dump-directory: /tmp, registry-ids: east }",
        "  config-center: { address: 'zookeeper://127.0.0.1:2181' }",
        "  registries:",
        "    east: { address: 'zookeeper://10.0.0.1:2181', use-file-cache: false, session: 3000 }",
        "    west: { address: 'zookeeper://10.0.0.2:2181', register: false }",
        "  protocols:",
        "    fast: { name: dubbo, port: 20881, payload: 1024, heartbeat-timeout-ms: 9000 }",
        "  provider: { threads: 50, registry-ids: east, delay: 10 }",
        "  consumer: { address_wait_ms: 10 }",
      ].join("\n"),
    );
    assert.equal(config.registries.east?.useFileCache, false);
    assert.equal(config.registries.east?.sessionMs, 3000);
    assert.equal(config.registries.west?.register, false);
    assert.equal(config.protocols.fast?.payloadBytes, 1024);
    assert.equal(config.protocols.fast?.heartbeatTimeoutMs, 9000);
    assert.deepEqual(config.provider.registries, ["east"], "Java's registry-ids");
    assert.equal(config.provider.delayMs, 10);
    assert.equal(config.consumer.addressWaitMs, 10);
    assert.deepEqual(
      [config.application.qosEnable, config.application.qosPort, config.application.qosAcceptForeignIp],
      [false, 33333, true],
      "Java's qos-* keys are the QoS settings",
    );
    for (const key of [
      "dubbo.application.dump-directory",
      "dubbo.application.registry-ids",
      "dubbo.config-center",
      "dubbo.provider.threads",
    ]) {
      assert.equal(
        warnings.filter((w) => w.includes(`${key} `)).length,
        1,
        `${key} warned once: ${warnings.join("\n")}`,
      );
    }
    await assert.rejects(
      load("dubbo:\n  provider:\n    timout: 10\n"),
      /dubbo\.provider\.timout.*did you mean "timeout"/,
    );
  });

  it("code - the README's DUBBO_REFERENCES_DEMO_METHODS_SAY_HELLO_RETRIES reaches app.refer({ id: 'demo' })", async () => {
    const env = { DUBBO_REFERENCES_DEMO_METHODS_SAY_HELLO_RETRIES: "5" };
    const { config, layers, warnings } = await load(undefined, {
      env,
      overrides: { application: { name: "demo-consumer" } },
    });
    assert.deepEqual(warnings, []);
    const reference = resolveReferenceEntry(
      layers,
      config,
      { interfaceName: DemoService.interfaceName, id: "demo" },
      { definition: DemoService },
    );
    assert.equal(reference.id, "demo");
    assert.equal(reference.methods.sayHello?.retries, 5);
  });

  it("code - export and refer take the file's and the environment's settings by interface name: env over code over file", async () => {
    const yaml = [
      "dubbo:",
      "  application: { name: a }",
      "  service:",
      "    org.apache.dubbo.demo.DemoService: { timeout: 100, weight: 5, token: abc }",
      "  references:",
      "    demo: { interface: org.apache.dubbo.demo.DemoService, timeout: 200, retries: 1, loadbalance: roundrobin }",
    ].join("\n");
    const env = {
      DUBBO_SERVICE_ORG_APACHE_DUBBO_DEMO_DEMOSERVICE_WEIGHT: "9",
      DUBBO_REFERENCES_DEMO_RETRIES: "4",
      DUBBO_REFERENCE_ORG_APACHE_DUBBO_DEMO_DEMOSERVICE_METHODS_SAY_HELLO_TIMEOUT: "300",
      DUBBO_REFERENCE_ORG_APACHE_DUBBO_DEMO_DEMOSERVICE_SAYHELLO_FORKS: "3",
      DUBBO_REFERENCE_ORG_APACHE_DUBBO_DEMO_DEMOSERVICE_STIKY: "true",
    };
    const { config, layers, warnings } = await load(yaml, { env });
    assert.deepEqual(warnings, [], "the methods are not known before the contract is");
    const service = resolveServiceEntry(
      layers,
      config,
      { interfaceName: DemoService.interfaceName },
      {
        definition: DemoService,
        ref: { sayHello: (n: string) => n },
        weight: 7,
        timeoutMs: 150,
      },
    );
    assert.equal(service.weight, 9, "env over code");
    assert.equal(service.timeoutMs, 150, "code over file");
    assert.equal(service.token, "abc", "file");
    const reference = resolveReferenceEntry(
      layers,
      config,
      { interfaceName: DemoService.interfaceName },
      {
        definition: DemoService,
        retries: 2,
        timeoutMs: 250,
      },
    );
    assert.equal(reference.id, "demo", "matched by the entry's interface");
    assert.equal(reference.retries, 4, "env (by id) over code");
    assert.equal(reference.timeoutMs, 250, "code over file");
    assert.equal(reference.loadbalance, "roundrobin", "file");
    assert.equal(reference.methods.sayHello?.timeoutMs, 300, "env by interface");
    assert.equal(reference.methods.sayHello?.forks, 3, "Java's dubbo.reference.{interface}.{method}.forks");
    resolveReferenceEntry(
      layers,
      config,
      { interfaceName: DemoService.interfaceName },
      { definition: DemoService },
    );
    assert.equal(warnings.length, 1, `the misspelt variable warned once: ${warnings.join("\n")}`);
    assert.match(
      warnings[0] ?? "",
      /DUBBO_REFERENCE_ORG_APACHE_DUBBO_DEMO_DEMOSERVICE_STIKY.*did you mean .*_STICKY\?/,
    );
  });

  it("code - two entries for one interface need the id option", async () => {
    const { config, layers } = await load(
      [
        "dubbo:",
        "  application: { name: a }",
        "  references:",
        "    a: { interface: org.apache.dubbo.demo.DemoService, group: a }",
        "    b: { interface: org.apache.dubbo.demo.DemoService, group: b }",
      ].join("\n"),
    );
    const refer = (id?: string) =>
      resolveReferenceEntry(
        layers,
        config,
        { interfaceName: DemoService.interfaceName, ...(id === undefined ? {} : { id }) },
        { definition: DemoService },
      );
    assert.throws(
      () => refer(),
      (e: unknown) => e instanceof RpcError && /a, b all configure .*id option/.test(e.message),
    );
    assert.equal(refer("b").group, "b");
  });

  it("container - DUBBO_IP_TO_REGISTRY and DUBBO_PORT_TO_REGISTRY register a reachable address; *_TO_BIND bind", async () => {
    const yaml =
      "dubbo:\n  application: { name: a }\n  protocol: { name: dubbo, host: 10.0.0.5, port: 20880 }\n";
    const env = {
      DUBBO_IP_TO_REGISTRY: "192.0.2.1",
      DUBBO_DUBBO_IP_TO_REGISTRY: "192.0.2.7",
      DUBBO_PORT_TO_REGISTRY: "30001",
      DUBBO_PORT_TO_BIND: "20990",
    };
    const { config, layers } = await load(yaml, { env });
    const protocol = config.protocols.dubbo;
    assert.ok(protocol);
    const service = resolveServiceEntry(
      layers,
      config,
      { interfaceName: DemoService.interfaceName },
      {
        definition: DemoService,
      },
    );
    const url = toServiceUrl(service, protocol, config.application, RUNTIME);
    assert.equal(url.address, "192.0.2.7:30001", "the protocol-prefixed variable first, as Java");
    assert.equal(url.get("bind.ip"), "10.0.0.5");
    assert.equal(url.get("bind.port"), "20990");

    const plain = await load(yaml);
    const plainUrl = toServiceUrl(service, plain.config.protocols.dubbo!, plain.config.application, RUNTIME);
    assert.equal(plainUrl.address, "10.0.0.5:20880");
    assert.equal(plainUrl.has("bind.ip") || plainUrl.has("bind.port"), false);

    const two = await load(
      "dubbo:\n  application: { name: a }\n  protocols:\n    p1: { name: dubbo, port: 20881 }\n    p2: { name: dubbo, port: 20882 }\n",
      { env: { DUBBO_PORT_TO_REGISTRY: "1", P2_DUBBO_PORT_TO_REGISTRY: "30002" } },
    );
    assert.equal(
      two.config.protocols.p1?.registerPort,
      undefined,
      "with several protocols the port is per id",
    );
    assert.equal(two.config.protocols.p2?.registerPort, 30002);

    await assert.rejects(
      load(yaml, { env: { DUBBO_IP_TO_REGISTRY: "127.0.0.1" } }),
      /DUBBO_IP_TO_REGISTRY = "127\.0\.0\.1".*other machines reach/,
    );
    await assert.rejects(
      load(yaml, { env: { DUBBO_PORT_TO_BIND: "70000" } }),
      /DUBBO_PORT_TO_BIND = "70000".*1 to 65535/,
    );
  });
});
