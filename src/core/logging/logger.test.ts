import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RpcError } from "../error/rpc-error.js";
import type { LogFields, LogSink } from "./log-sink.js";
import { createLogger, isLogger, silentLogger } from "./logger.js";

/** An object of pino's shape: each level is `(fields, message)`; it keeps what it was given. */
function pinoShaped() {
  const lines: Array<{ level: string; fields: LogFields; message: string }> = [];
  const at = (level: string) => (fields: LogFields, message: string) =>
    lines.push({ level, fields, message });
  const sink: LogSink = {
    error: at("error"),
    warn: at("warn"),
    info: at("info"),
    debug: at("debug"),
    trace: at("trace"),
  };
  return { sink, lines };
}

describe("logger", () => {
  it("logging - records reach a pino-shaped sink as (fields, message), the error under `err`", () => {
    const { sink, lines } = pinoShaped();
    const logger = createLogger({ sink });
    const cause = new RpcError("ZooKeeper 127.0.0.1:1 is not connected");
    logger.warn("registration waits for the registry", cause);
    logger.info("providers of demo.S: +127.0.0.1:20880");
    assert.deepEqual(lines, [
      { level: "warn", fields: { err: cause }, message: "registration waits for the registry" },
      { level: "info", fields: {}, message: "providers of demo.S: +127.0.0.1:20880" },
    ]);
  });

  it("logging - the level drops what is less severe; debug is off by default", () => {
    const { sink, lines } = pinoShaped();
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
    const { sink, lines } = pinoShaped();
    const logger = createLogger({ sink, categories: "registry, transport" });
    logger.debug("registry", "subscribed");
    logger.trace("transport", "frame out");
    logger.debug("cluster", "picked");
    logger.info("still written");
    assert.deepEqual(
      lines.map((l) => [l.level, l.fields.category, l.message]),
      [
        ["debug", "registry", "subscribed"],
        ["trace", "transport", "frame out"],
        ["info", undefined, "still written"],
      ],
    );
    const all = pinoShaped();
    createLogger({ sink: all.sink, categories: "all" }).trace("cluster", "any category");
    assert.equal(all.lines.length, 1);
  });

  it("logging - a Logger is told from a sink of the same method names", () => {
    assert.equal(isLogger(createLogger()), true);
    assert.equal(isLogger(silentLogger), true);
    assert.equal(isLogger(pinoShaped().sink), false);
  });
});
