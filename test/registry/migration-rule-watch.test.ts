// The migration rule `/dubbo/config/DUBBO_SERVICEDISCOVERY_MIGRATION/{application}.migration` is
// watched, as Java's MigrationRuleListener watches it: changing the node moves a running reference
// between FORCE_INTERFACE, APPLICATION_FIRST and FORCE_APPLICATION (threshold and force as Java's
// MigrationInvoker checks them). Two real providers of one interface on a real ZooKeeper, one
// registered per interface only and one per application only, answer with their mode, so each
// call shows the level it went through. A consumer referred while ZooKeeper is down starts
// interface-level and decides its step once ZooKeeper is back.
import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { defineService, java } from "../../src/core/index.js";
import { createDubbo, silentLogger } from "../../src/index.js";
import { waitFor } from "./kit.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const Where = defineService("org.demo.MigrationWhere", { where: { args: [], returns: java.String } });
const RULES = "/dubbo/config/DUBBO_SERVICEDISCOVERY_MIGRATION";
const fixture = useZooKeeper("dubbo-ts-migration-watch-");

function registry(file: string, extra: { check?: boolean } = {}) {
  return {
    address: `zookeeper://${fixture.zk.connectString}`,
    file: join(fixture.dir, file),
    parameters: { "retry.period": "200" },
    ...extra,
  };
}

async function provider(mode: "interface" | "instance"): Promise<void> {
  const app = await createDubbo({
    application: { name: `where-${mode}`, registerMode: mode },
    env: false,
    logger: silentLogger,
    registry: registry(`${mode}.cache`),
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
  fixture.cleanups.push(() => app.stop());
  await app.export(Where, { where: () => mode }, { scope: "remote" });
}

/** What the consumers logged as warnings and errors. */
const logged: string[] = [];
const capturing = {
  ...silentLogger,
  warn: (message: string) => void logged.push(message),
  error: (message: string) => void logged.push(message),
};

async function loggedLine(what: string, pattern: RegExp): Promise<void> {
  await waitFor(what, () => logged.some((line) => pattern.test(line)));
}

async function consumer(name: string, check?: boolean) {
  const app = await createDubbo({
    application: { name },
    env: false,
    logger: capturing,
    registry: registry(`${name}.cache`, check === undefined ? {} : { check }),
  });
  fixture.cleanups.push(() => app.stop());
  return app.refer(Where, { check: false });
}

/** Writes (or, with undefined, deletes) the application's migration rule node. */
async function setRule(app: string, text: string | undefined): Promise<void> {
  const path = `${RULES}/${app}.migration`;
  const node = await fixture.inspector.getData(path);
  if (text === undefined) {
    if (node !== undefined) await fixture.inspector.remove(path);
  } else if (node === undefined) {
    await fixture.inspector.create(path, false, Buffer.from(text));
  } else {
    await fixture.inspector.setData(path, Buffer.from(text), node.version);
  }
}

/** Waits until every one of `calls` calls answers `mode` (the level the reference uses). */
async function callsGoTo(stub: { where(): Promise<string> }, mode: string, calls = 5): Promise<void> {
  await waitFor(`calls through the ${mode} level`, async () => {
    for (let i = 0; i < calls; i++) if ((await stub.where()) !== mode) return false;
    return true;
  });
}

describe("the migration rule is watched and moves a running reference", () => {
  before(async () => {
    await provider("interface");
    await provider("instance");
    await fixture.inspector.mkdirp(RULES);
  });

  it("each change of the rule node switches the level the calls take", async () => {
    const name = "migrating-consumer";
    const stub = await consumer(name);
    // APPLICATION_FIRST (the default): the application-level list is non-empty, so it wins.
    await callsGoTo(stub, "instance");
    await setRule(name, `key: ${name}\nstep: FORCE_INTERFACE\n`);
    await callsGoTo(stub, "interface");
    await setRule(name, `key: ${name}\nstep: FORCE_APPLICATION\n`);
    await callsGoTo(stub, "instance");
    // APPLICATION_FIRST with a threshold the application level (1 of 1) does not reach.
    await setRule(name, `key: ${name}\nstep: APPLICATION_FIRST\nthreshold: 2\n`);
    await callsGoTo(stub, "interface");
    // A per-interface entry wins over the rule's own step.
    await setRule(
      name,
      `key: ${name}\nstep: FORCE_INTERFACE\ninterfaces:\n  - serviceKey: org.demo.MigrationWhere\n    step: FORCE_APPLICATION\n`,
    );
    await callsGoTo(stub, "instance");
    await setRule(name, undefined);
    await setRule(name, `key: ${name}\nstep: FORCE_INTERFACE\n`);
    await callsGoTo(stub, "interface");
    // Deleting the rule goes back to the default (APPLICATION_FIRST).
    await setRule(name, undefined);
    await callsGoTo(stub, "instance");
  });

  it("a FORCE_ step whose level fails the threshold is refused unless the rule says force: true", async () => {
    const name = "forced-consumer";
    await setRule(name, `key: ${name}\nstep: FORCE_INTERFACE\n`);
    const stub = await consumer(name);
    await callsGoTo(stub, "interface");
    // 1 instance / 1 interface provider < 2: Java's MigrationInvoker keeps FORCE_INTERFACE.
    await setRule(name, `key: ${name}\nstep: FORCE_APPLICATION\nthreshold: 2\n`);
    await loggedLine("the refusal", /MigrationWhere stays at its migration step: the FORCE_APPLICATION rule/);
    await callsGoTo(stub, "interface");
    await setRule(name, `key: ${name}\nstep: FORCE_APPLICATION\nthreshold: 2\nforce: true\n`);
    await callsGoTo(stub, "instance");
  });

  it("a rule that is not YAML changes nothing; the next good one applies", async () => {
    const name = "badly-ruled-consumer";
    const stub = await consumer(name);
    await callsGoTo(stub, "instance");
    await setRule(name, "step: [FORCE_INTERFACE\n");
    await loggedLine("the YAML error", /MigrationWhere\) was not applied .*not YAML/);
    await setRule(name, `key: ${name}\nstep: SOMETIMES\n`);
    await loggedLine("the bad step", /MigrationWhere\) was not applied .*step "SOMETIMES" is not one of/);
    for (let i = 0; i < 5; i++) assert.equal(await stub.where(), "instance");
    await setRule(name, `key: ${name}\nstep: FORCE_INTERFACE\n`);
    await callsGoTo(stub, "interface");
  });

  it("referred while ZooKeeper is down: interface-level, then the rule's step once ZooKeeper is back", async () => {
    const name = "late-migrating-consumer";
    await setRule(name, `key: ${name}\nstep: FORCE_APPLICATION\n`);
    await fixture.zk.halt();
    let stub: Awaited<ReturnType<typeof consumer>>;
    try {
      stub = await consumer(name, false);
    } finally {
      await fixture.zk.start();
    }
    // The interface level's retry finds its provider; the migration rule's retry then moves the
    // reference to FORCE_APPLICATION (before, it stayed FORCE_INTERFACE until referred again).
    await callsGoTo(stub, "instance");
  });
});
