// What an operator needs reaches the application's logger once each, at a sensible level: the
// providers a consumer gained and lost, a killed provider's dropped connection and the throttled
// reconnect attempts, a ZooKeeper outage (lost, then restored) and an expired session (recovered).
// Records are captured through the injected logger; the registry and the provider are real (a
// ZooKeeper server, a child process).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startZooKeeper, type ZooKeeperServer } from "../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication } from "../../src/index.js";
import { createRecordingLogger, type RecordingLogger, waitFor } from "../../src/testing/index.js";
import { DemoService, IFACE, type ProviderProcess, spawnRegistryProvider } from "../registry/kit.js";

let zk: ZooKeeperServer;
let dir: string;
let provider: ProviderProcess | undefined;
let app: DubboApplication | undefined;

before(async () => {
  zk = await startZooKeeper();
  dir = mkdtempSync(join(tmpdir(), "dubbo-ts-operator-logs-"));
});

after(async () => {
  await provider?.kill();
  await app?.stop();
  await zk?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** An application on the test's ZooKeeper with a session of `sessionMs`, logging to `logger`. */
function application(name: string, sessionMs: number, logger: RecordingLogger): Promise<DubboApplication> {
  return createDubbo({
    application: { name },
    env: false,
    logger,
    shutdownHook: false,
    registry: { address: `zookeeper://${zk.connectString}`, sessionMs, file: join(dir, `${name}.cache`) },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
}

function matching(logger: RecordingLogger, level: "info" | "warn", pattern: RegExp): string[] {
  return logger.messages(level).filter((m) => pattern.test(m));
}

describe("operator logs", () => {
  it("logging - providers gained and lost, a killed provider's connection, a ZooKeeper outage: once each", async () => {
    // The provider's short session lets ZooKeeper drop its node soon after it is killed.
    provider = await spawnRegistryProvider(`zookeeper://${zk.connectString}?session=2000`, "p1");
    const logger = createRecordingLogger();
    app = await application("operator-logs-consumer", 30_000, logger);
    const stub = await app.refer(DemoService);
    assert.equal(await stub.whoAmI("ops"), "p1 answers ops");
    const address = provider.address.replace(/\./g, "\\.");
    assert.equal(
      matching(logger, "info", new RegExp(`providers of ${IFACE}: \\+${address} \\(1 now\\)`)).length,
      1,
    );

    await provider.kill();
    provider = undefined;
    await waitFor(
      "the consumer logs the provider's removal",
      () =>
        matching(logger, "warn", new RegExp(`providers of ${IFACE}: -${address} \\(0 now\\)`)).length === 1,
      10_000,
    );
    assert.equal(matching(logger, "warn", new RegExp(`connection to ${address} lost`)).length, 1);
    const attempts = logger
      .messages("info")
      .flatMap((m) => /^reconnect attempt (\d+) failed/.exec(m)?.[1] ?? [])
      .map(Number);
    assert.ok(attempts.length > 0, "a failed reconnect attempt is logged");
    assert.ok(
      attempts.every((n) => (n & (n - 1)) === 0),
      `attempts are throttled to 1, 2, 4…: ${attempts}`,
    );

    await zk.halt();
    await waitFor(
      "the consumer logs the lost ZooKeeper connection",
      () => matching(logger, "warn", /ZooKeeper .*: connection lost; reconnecting/).length === 1,
      10_000,
    );
    await zk.start();
    const restored = /ZooKeeper .*: (connection restored after \d+ ms|connected on a new session)/;
    await waitFor(
      "the consumer logs the restored ZooKeeper connection",
      () => matching(logger, "info", restored).length === 1,
      30_000,
    );
    assert.equal(matching(logger, "warn", /ZooKeeper .*: connection lost/).length, 1);
    assert.deepEqual(logger.messages("error"), []);
    await app.stop();
    app = undefined;
  });

  it("logging - an expired ZooKeeper session and its recovery: one warning, one info", async () => {
    const logger = createRecordingLogger();
    app = await application("operator-logs-expiry", 2000, logger);
    await app.export(DemoService, { whoAmI: (caller: string) => caller }, { scope: "remote" });
    // Freeze this process past its 2 s session, as a long GC pause or a suspended VM would.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4500);
    await waitFor(
      "the application logs its recovery on a new session",
      () => matching(logger, "info", /ZooKeeper .*: connected on a new session/).length === 1,
      20_000,
    );
    assert.equal(matching(logger, "warn", /ZooKeeper .*: session 0x\w+ expired/).length, 1);
    assert.deepEqual(logger.messages("error"), []);
  });
});
