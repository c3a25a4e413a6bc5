import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createRecordingSink } from "../../testing/index.js";
import { RpcError } from "../error/rpc-error.js";
import { createLogger, isLogger, silentLogger } from "./logger.js";

describe("logger", () => {
  it("logging - records reach a pino-shaped sink as (fields, message), the error under `err`", () => {
    const { sink, records: lines } = createRecordingSink();
    const logger = createLogger({ sink });
    const cause = new RpcError("ZooKeeper 127.0.0.1:1 is not connected");
    logger.warn("registration waits for the registry", cause);
    logger.info("providers of demo.S: +127.0.0.1:20880");
    assert.deepEqual(lines, [
      { level: "warn", message: "registration waits for the registry", category: undefined, error: cause },
      {
        level: "info",
        message: "providers of demo.S: +127.0.0.1:20880",
        category: undefined,
        error: undefined,
      },
    ]);
  });

  it("logging - the level drops what is less severe; debug is off by default", () => {
    const { sink, records: lines } = createRecordingSink();
    const logger = createLogger({ sink, level: "warn" });
    logger.error("e");
    logger.warn("w");
    logger.info("i");
    logger.debug("registry", "d");
    assert.deepEqual(
      lines.map((l) => l.level),
      ["error", "warn"],
    );
    createLogger({ sink }).debug("registry", "not at info");
    assert.equal(lines.length, 2);
  });

  it("logging - naming categories (DUBBO_TRACE=registry,transport) writes their debug and trace only", () => {
    const { sink, records: lines } = createRecordingSink();
    const logger = createLogger({ sink, categories: "registry, transport" });
    logger.debug("registry", "subscribed");
    logger.trace("transport", "frame out");
    logger.debug("cluster", "picked");
    logger.info("still written");
    assert.deepEqual(
      lines.map((l) => [l.level, l.category, l.message]),
      [
        ["debug", "registry", "subscribed"],
        ["trace", "transport", "frame out"],
        ["info", undefined, "still written"],
      ],
    );
    const all = createRecordingSink();
    createLogger({ sink: all.sink, categories: "all" }).trace("cluster", "any category");
    assert.equal(all.records.length, 1);
  });

  it("logging - a Logger is told from a sink of the same method names", () => {
    assert.equal(isLogger(createLogger()), true);
    assert.equal(isLogger(silentLogger), true);
    assert.equal(isLogger(createRecordingSink().sink), false);
  });
});
