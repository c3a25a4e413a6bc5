// The web console end to end in headless Chromium (Debian's package, driven by playwright-core):
// `dubbo-ts console --registry zookeeper://…` as its own process lists two running providers (and
// their application instances); an
// override disabling one of them, added in the page (dubbo-admin's v2.7 YAML at
// /dubbo/config/dubbo/{interface::}.configurators), moves a running consumer's calls to the other;
// removing it in the page brings both back. The consumer's QoS port serves the same page at /console.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, defineService, java, silentLogger } from "../../src/index.js";
import { ZkClient } from "../../src/registry/zookeeper/zk-client.js";
import { lineOf, REPO_ROOT, stopChild } from "../run-process.js";

const Greeter = defineService("com.example.Greeter", {
  greet: { args: [java.String], returns: java.String },
});
const RULE_PATH = "/dubbo/config/dubbo/com.example.Greeter::.configurators";
/** `CONSOLE_SCREENSHOT=docs/console.png` refreshes the README's picture; else it goes to a temporary file. */
const SCREENSHOT = process.env.CONSOLE_SCREENSHOT ?? join(tmpdir(), `dubbo-ts-console-${process.pid}.png`);
const ROUNDS = 30;

describe("web console in a headless browser", () => {
  let zk: ZooKeeperServer;
  let browser: Browser;
  let page: Page;
  let consoleProcess: ChildProcess;
  let consoleUrl: string;
  let consumer: DubboApplication;
  let greeter: { greet(name: string): Promise<string> };
  const providerPorts: Record<string, number> = {};
  const apps: DubboApplication[] = [];

  /** Who answered a round of calls, sorted and de-duplicated. */
  async function round(): Promise<string[]> {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) seen.add(await greeter.greet("x"));
    return [...seen].sort();
  }

  /** Rounds until one answers exactly `wanted` (bounded); returns the last round. */
  async function settle(wanted: string[]): Promise<string[]> {
    let last: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      last = await round();
      if (last.join() === wanted.join()) return last;
      await new Promise((r) => setTimeout(r, 200));
    }
    return last;
  }

  before(async () => {
    zk = await startZooKeeper();
    const registry = { address: `zookeeper://${zk.connectString}`, useFileCache: false };
    for (const name of ["a", "b"]) {
      const app = await createDubbo({
        application: { name: `console-provider-${name}`, qosEnable: false },
        protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
        registry,
        env: false,
        logger: silentLogger,
      });
      apps.push(app);
      const exported = await app.export(Greeter, { greet: () => name });
      await app.start();
      providerPorts[name] = exported.urls[0]!.port;
    }
    consumer = await createDubbo({
      application: { name: "console-consumer", qosPort: 0 },
      registry,
      env: false,
      logger: silentLogger,
    });
    apps.push(consumer);
    greeter = await consumer.refer(Greeter, { check: false });
    await consumer.start();

    consoleProcess = spawn(
      process.execPath,
      [
        "bin/dubbo-ts.mjs",
        "console",
        "--registry",
        `zookeeper://${zk.connectString}`,
        "--port",
        "0",
        "--metrics",
        `127.0.0.1:${consumer.qosPort}`,
      ],
      { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    consoleUrl = (await lineOf(consoleProcess, /^dubbo-ts console at (\S+)/, "dubbo-ts console"))[1]!;
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    if (consoleProcess) await stopChild(consoleProcess);
    for (const app of apps.reverse()) await app.stop();
    await zk?.stop();
    if (process.env.CONSOLE_SCREENSHOT === undefined) rmSync(SCREENSHOT, { force: true });
  });

  it("lists the running providers; an override added in the page disables one for the running consumer; removing it restores both", async () => {
    assert.deepEqual(await settle(["a", "b"]), ["a", "b"], "both providers answer before any rule");
    await page.goto(consoleUrl);
    const a = `127.0.0.1:${providerPorts.a}`;
    const b = `127.0.0.1:${providerPorts.b}`;
    for (const address of [a, b]) {
      await page.locator(`#services tr[data-role=provider][data-address="${address}"]`).waitFor();
    }
    const row = page.locator(`#services tr[data-role=provider][data-address="${a}"]`);
    assert.match((await row.textContent()) ?? "", /console-provider-a/);
    assert.match((await row.textContent()) ?? "", /interface=com\.example\.Greeter/);
    await page.locator('#services tr[data-role=consumer] >> text="console-consumer"').waitFor();
    // Each provider's instance under /services (register-mode=all, the default), with its revision.
    for (const name of ["a", "b"]) {
      const instance = page.locator(
        `#applications tr[data-application="console-provider-${name}"][data-instance="127.0.0.1:${providerPorts[name]}"]`,
      );
      await instance.waitFor();
      assert.match((await instance.textContent()) ?? "", /dubbo:\d+.*dubbo\.metadata\.revision=/);
    }

    await row.locator("button").click();
    assert.equal(await page.inputValue("#rule-key"), "com.example.Greeter::");
    await page.click("#rule-save");
    await page.locator('#rules tr[data-kind=override][data-key="com.example.Greeter::"]').waitFor();
    assert.match(
      (await page.textContent("#message")) ?? "",
      /saved the override rule com\.example\.Greeter::/,
    );

    const inspector = new ZkClient({
      connectString: zk.connectString,
      sessionTimeoutMs: 10_000,
      operationTimeoutMs: 3000,
    });
    await inspector.connect(10_000);
    try {
      const node = await inspector.getData(RULE_PATH);
      assert.match(
        node?.data.toString("utf8") ?? "",
        new RegExp(`providerAddresses: \\["${a}"\\]\\n {4}parameters:\\n {6}disabled: true`),
      );
    } finally {
      inspector.close();
    }
    assert.deepEqual(await settle(["b"]), ["b"], "the consumer's calls go to the provider left enabled");

    await page.locator('#metrics tr >> text="greet"').first().waitFor();
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    await page.locator("#rules tr[data-kind=override] button").click();
    await page.locator("#rules tr[data-kind=override]").waitFor({ state: "detached" });
    assert.deepEqual(await settle(["a", "b"]), ["a", "b"], "both providers answer once the rule is removed");
  });

  it("a bad rule is refused with a message naming what to change", async () => {
    await page.goto(consoleUrl);
    await page.fill("#rule-key", "com.example.Greeter::");
    await page.fill("#rule-yaml", "- not\n- a mapping\n");
    await page.click("#rule-save");
    await page.locator("#message.error").waitFor();
    assert.match((await page.textContent("#message")) ?? "", /must be a YAML mapping/);
  });

  it("the consumer's QoS port serves the same console at /console", async () => {
    await page.goto(`http://127.0.0.1:${consumer.qosPort}/console`);
    await page
      .locator(`#services tr[data-role=provider][data-address="127.0.0.1:${providerPorts.b}"]`)
      .waitFor();
    await page.locator('#metrics tr >> text="console-consumer"').first().waitFor();
  });
});
