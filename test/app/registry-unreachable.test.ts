// A ZooKeeper registry nobody listens on, at start: with `check` (the default) one clear error that
// names the address and the setting to change; with `check: false` one warning and nothing more,
// through the export, the reference and the stop.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, it } from "node:test";
import { DemoService } from "../../examples/demo-service.js";
import { createDubbo, RpcError } from "../../src/index.js";
import { createRecordingLogger, type RecordingLogger } from "../../src/testing/index.js";

/** A loopback port that was free a moment ago and has no listener now. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function application(logger: RecordingLogger, check: boolean) {
  return createDubbo({
    application: { name: "unreachable-registry" },
    env: false,
    logger,
    shutdownHook: false,
    registry: {
      address: `zookeeper://127.0.0.1:${await deadPort()}`,
      check,
      timeoutMs: 500,
      useFileCache: false,
    },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
}

/** What alerts an operator: the warnings and errors. */
const alerts = (logger: RecordingLogger) =>
  logger.records.filter((r) => r.level === "warn" || r.level === "error");

describe("registry unreachable at start", () => {
  it("registry - check=true: the export fails with one error naming the address and `check: false`", async () => {
    const logger = createRecordingLogger();
    const app = await application(logger, true);
    try {
      await assert.rejects(
        app.export(DemoService, { sayHello: (n: string) => n }, { scope: "remote" }),
        (e: unknown) =>
          e instanceof RpcError &&
          /ZooKeeper registry 127\.0\.0\.1:\d+ is unreachable/.test(e.message) &&
          /set `check: false`/.test(e.message),
      );
    } finally {
      await app.stop();
    }
    assert.deepEqual(alerts(logger), []);
  });

  it("registry - check=false: one warning, and no other warning or error through export, refer and stop", async () => {
    const logger = createRecordingLogger();
    const app = await application(logger, false);
    await app.export(DemoService, { sayHello: (n: string) => n }, { scope: "remote" });
    await app.refer(DemoService, { check: false });
    await app.stop();
    const records = alerts(logger);
    assert.equal(records.length, 1, records.map((r) => `${r.level} ${r.message}`).join("\n"));
    assert.equal(records[0]!.level, "warn");
    assert.match(records[0]!.message, /is unreachable.*starting without it \(check=false\)/);
    assert.doesNotMatch(records[0]!.message, /set check=false/);
  });
});
