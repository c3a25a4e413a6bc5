// `dubbo-ts ls` and the web console list Dubbo 3's application-level instances on a real
// ZooKeeper: an application registered with register-mode=instance (no interface-level provider
// node) and one with register-mode=all appear under /services/{app} with their address, metadata
// revision and endpoints, as the nodes Java's Curator service discovery reads hold them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import { createDubbo, type DubboApplication, defineService, java, silentLogger } from "../../src/index.js";
import { httpGet } from "../qos/qos-client.js";
import { useZooKeeper } from "../registry/zookeeper-fixture.js";
import { dubboTs } from "./run-cli.js";

const Lister = defineService("com.example.ls.Lister", {
  list: { args: [], returns: java.String },
});
const fixture = useZooKeeper("dubbo-ts-ls-applications-");

interface Provider {
  readonly app: DubboApplication;
  /** `[protocol, port]` of each protocol it serves. */
  readonly ports: ReadonlyArray<readonly [string, number]>;
}

async function provider(name: string, registerMode: "instance" | "all"): Promise<Provider> {
  const app = await createDubbo({
    application: { name, registerMode, qosPort: 0 },
    env: false,
    logger: silentLogger,
    registry: {
      address: `zookeeper://${fixture.zk.connectString}`,
      file: join(fixture.dir, `${name}.cache`),
    },
    protocols: {
      dubbo: { name: "dubbo", host: "127.0.0.1", port: 0 },
      tri: { name: "tri", host: "127.0.0.1", port: 0 },
    },
  });
  fixture.cleanups.push(() => app.stop());
  const exported = await app.export(Lister, { list: () => name });
  await app.start();
  return { app, ports: exported.urls.map((u) => [u.protocol, u.port] as const) };
}

interface Instance {
  readonly id: string;
  readonly address: string;
  readonly port: number;
  readonly revision: string;
  readonly endpoints: ReadonlyArray<{ protocol: string; port: number }>;
  readonly metadata: Record<string, string>;
}
interface Application {
  readonly application: string;
  readonly instances: readonly Instance[];
}

it("cli and console - ls lists the applications' instances under /services with revision and endpoints", async () => {
  const instanceOnly = await provider("ls-instance-app", "instance");
  const both = await provider("ls-all-app", "all");
  const registry = `zookeeper://${fixture.zk.connectString}`;

  const json = await dubboTs("ls", registry, "--json");
  assert.equal(json.code, 0, json.stderr);
  const listing = JSON.parse(json.stdout) as {
    services: Record<string, { providers?: string[] }>;
    applications: Application[];
  };
  assert.deepEqual(
    listing.applications.map((a) => a.application),
    ["ls-all-app", "ls-instance-app"],
  );
  // register-mode=instance writes no interface-level provider node; all writes one per protocol.
  assert.equal(listing.services["com.example.ls.Lister"]?.providers?.length, 2);

  for (const [{ ports }, entry] of [
    [instanceOnly, listing.applications[1]!],
    [both, listing.applications[0]!],
  ] as const) {
    assert.equal(entry.instances.length, 1);
    const instance = entry.instances[0]!;
    const nodes = await fixture.inspector.getChildren(`/services/${entry.application}`);
    assert.deepEqual(nodes, [instance.id], "the instance is the node Java reads");
    assert.equal(instance.id, `${instance.address}:${instance.port}`);
    assert.match(instance.revision, /^[0-9a-f]+$/, "the metadata revision consumers fetch by");
    assert.equal(instance.metadata["dubbo.metadata.revision"], instance.revision);
    assert.deepEqual(
      [...instance.endpoints].map((e) => [e.protocol, e.port]).sort(),
      [...ports].sort(),
      "the endpoints name each protocol's port",
    );
  }

  const text = await dubboTs("ls", registry);
  assert.equal(text.code, 0, text.stderr);
  const shown = listing.applications[1]!.instances[0]!;
  assert.match(text.stdout, /^applications \(instances under \/services\):$/m);
  assert.match(text.stdout, /^ls-instance-app {2}1 instance\(s\)$/m);
  assert.ok(
    text.stdout.includes(`  ${shown.id}  revision ${shown.revision}  `),
    `the text names the instance and its revision:\n${text.stdout}`,
  );

  // The web console on the QoS port lists the same instances.
  const page = await httpGet(both.app.qosPort, "/console/api/applications");
  assert.equal(page.status, 200, page.body);
  assert.deepEqual(JSON.parse(page.body), listing.applications);
});
