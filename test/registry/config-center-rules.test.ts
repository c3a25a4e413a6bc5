// The config center's rules on a real ZooKeeper, for what the Java interop test does not cover:
// a provider follows `{application}.configurators` (dubbo-admin's v3.0 form with a match) and
// re-registers with the new weight; a consumer follows `{provider application}.script-router`;
// a rule with an unknown field is logged by node path and the one before stays in force.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { freePort } from "../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, silentLogger } from "../../src/index.js";
import { DemoService, IFACE, waitFor, zookeeperProviders } from "./kit.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const fixture = useZooKeeper("dubbo-ts-config-center-");
const RULES = "/dubbo/config/dubbo";
const PROVIDER_APP = "cc-provider";

async function writeRule(path: string, text: string | undefined): Promise<void> {
  const { inspector } = fixture;
  await inspector.mkdirp(RULES);
  const exists = await inspector.exists(path);
  if (text === undefined) {
    if (exists) await inspector.remove(path);
  } else if (exists) await inspector.setData(path, Buffer.from(text), -1);
  else await inspector.create(path, false, Buffer.from(text));
}

async function provider(tag: string, port = 0): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name: PROVIDER_APP },
    env: false,
    logger: silentLogger,
    registry: { address: `zookeeper://${fixture.zk.connectString}` },
    protocol: { name: "dubbo", host: "127.0.0.1", port },
  });
  fixture.cleanups.push(() => app.stop());
  await app.export(DemoService, { whoAmI: () => tag }, { scope: "remote" });
  return app;
}

describe("config-center rules on a real ZooKeeper", () => {
  it("a provider re-registers with the weight of a v3.0 application configurator whose match names it", async () => {
    await provider("weighted");
    const weight = async () => (await zookeeperProviders(fixture.zk.connectString, IFACE))[0]?.get("weight");
    await waitFor(
      "the provider registered",
      async () => (await zookeeperProviders(fixture.zk.connectString, IFACE)).length === 1,
    );
    assert.equal(await weight(), undefined);
    const path = `${RULES}/${PROVIDER_APP}.configurators`;
    await writeRule(
      path,
      `configVersion: v3.0
scope: application
key: ${PROVIDER_APP}
enabled: true
configs:
  - side: provider
    match:
      param:
        - key: interface
          value:
            exact: ${IFACE}
    parameters:
      weight: 37
`,
    );
    await waitFor("weight=37 registered", async () => (await weight()) === "37");
    await writeRule(path, undefined);
    await waitFor("the weight rule gone", async () => (await weight()) === undefined);
  });

  it("a consumer follows the providers' application's script rule; an unknown field keeps the rule before", async () => {
    const secondPort = await freePort();
    await provider("second", secondPort);
    const errors: string[] = [];
    const consumer = await createDubbo({
      application: { name: "cc-consumer" },
      env: false,
      logger: { ...silentLogger, error: (message: string) => errors.push(message) },
      registry: { address: `zookeeper://${fixture.zk.connectString}` },
    });
    fixture.cleanups.push(() => consumer.stop());
    const stub = await consumer.refer(DemoService, { check: false });
    const answers = async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) seen.add(await stub.whoAmI("x"));
      return [...seen].sort().join(",");
    };
    await waitFor("both providers answer", async () => (await answers()) === "second,weighted");
    const path = `${RULES}/${PROVIDER_APP}.script-router`;
    const rule = (extra = "") => `key: ${PROVIDER_APP}
type: javascript
enabled: true
${extra}script: |
  (function (invokers) {
    var kept = new java.util.ArrayList();
    for (var i = 0; i < invokers.size(); i++) if (invokers.get(i).getUrl().getPort() === ${secondPort}) kept.add(invokers.get(i));
    return kept;
  })(invokers);
`;
    await writeRule(path, rule());
    await waitFor("only the second provider answers", async () => (await answers()) === "second");
    await writeRule(path, rule("forse: true\n"));
    await waitFor("the bad rule reported", () =>
      errors.some((e) => e.includes(`${path}: unknown field "forse"`)),
    );
    assert.match(errors.join("\n"), /the previous rule stays in force/);
    assert.equal(await answers(), "second", "the rule before stays in force");
    await writeRule(path, undefined);
    await waitFor("both answer again", async () => (await answers()) === "second,weighted");
  });
});
