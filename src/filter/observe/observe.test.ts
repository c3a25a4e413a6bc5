import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createInvocation, type Invoker, java, resultOf, Url } from "../../core/index.js";
import { createRecordingLogger } from "../../testing/index.js";
import { buildFilterChain } from "../filter-chain.js";
import { createAccessLogFilter, formatAccessLine } from "./accesslog-filter.js";
import { createTimeoutFilter } from "./timeout-filter.js";

function invokerAt(url: string, delayMs = 0): Invoker {
  return {
    url: Url.parse(url),
    isAvailable: () => true,
    destroy: async () => {},
    invoke: async () => {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      return resultOf("ok");
    },
  };
}

const call = (deadline?: number) =>
  createInvocation({
    service: "demo.S",
    method: "sayHello",
    args: ["bob"],
    parameterTypes: [java.String],
    remoteAddress: "127.0.0.1:5555",
    ...(deadline === undefined ? {} : { deadline }),
  });

describe("observing filters", () => {
  it("accesslog - true logs each call's line: caller, provider, service, method, types and args", async () => {
    const logger = createRecordingLogger();
    const { filter } = createAccessLogFilter({ logger });
    const chain = buildFilterChain(invokerAt("dubbo://127.0.0.1:20880/demo.S?accesslog=true"), [filter]);
    await chain.invoke(call());
    const lines = logger.messages("info");
    assert.equal(lines.length, 1);
    assert.match(
      lines[0]!,
      /\] 127\.0\.0\.1:5555 -> 127\.0\.0\.1:20880 - demo\.S sayHello\(java\.lang\.String\) \["bob"\]$/,
    );
  });

  it("accesslog - a file path gets the lines appended asynchronously in batches", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dubbo-accesslog-"));
    const path = join(dir, "access.log");
    try {
      const { filter } = createAccessLogFilter({ flushMs: 20 });
      const chain = buildFilterChain(invokerAt(`dubbo://127.0.0.1:20880/demo.S?accesslog=${path}`), [filter]);
      await chain.invoke(call());
      await chain.invoke(call());
      let text = "";
      for (let i = 0; i < 100 && text.split("\n").length < 3; i++) {
        await new Promise((r) => setTimeout(r, 20));
        text = await readFile(path, "utf8").catch(() => "");
      }
      assert.equal(text.trim().split("\n").length, 2);
      assert.match(text, /demo\.S sayHello/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("accesslog - close writes the lines still buffered (the application's stop)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dubbo-accesslog-"));
    const path = join(dir, "access.log");
    try {
      const accessLog = createAccessLogFilter({ flushMs: 3_600_000 });
      const chain = buildFilterChain(invokerAt(`dubbo://127.0.0.1:20880/demo.S?accesslog=${path}`), [
        accessLog.filter,
      ]);
      for (let i = 0; i < 3; i++) await chain.invoke(call());
      await accessLog.close?.();
      const text = await readFile(path, "utf8");
      assert.equal(text.trim().split("\n").length, 3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("timeout - a call that finished past its deadline is logged; a quick one is not", async () => {
    const logger = createRecordingLogger();
    const warnings = logger.records;
    const { filter } = createTimeoutFilter({ logger });
    const slow = buildFilterChain(invokerAt("dubbo://127.0.0.1:20880/demo.S", 40), [filter]);
    await slow.invoke(call(Date.now() + 10));
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.level, "warn");
    assert.match(
      warnings[0]!.message,
      /demo\.S\.sayHello from 127\.0\.0\.1:5555 .* took \d+ ms, over its timeout of \d+ ms/,
    );
    await slow.invoke(call(Date.now() + 5000));
    assert.equal(warnings.length, 1);
    // Without a deadline the URL's timeout applies, counted from when the call passed the filter.
    const quick = buildFilterChain(invokerAt("dubbo://127.0.0.1:20880/demo.S?timeout=5000"), [filter]);
    await quick.invoke(call());
    assert.equal(warnings.length, 1);
  });
});

describe("access log lines", () => {
  it("accesslog - a graph of shared references is written once per node, later ones as $ref", () => {
    let shared: unknown = "leaf";
    for (let i = 0; i < 60; i++) shared = [shared, shared];
    const inv = createInvocation({
      service: "demo.S",
      method: "describe",
      args: [shared],
      parameterTypes: [java.Object],
      remoteAddress: "127.0.0.1:5555",
    });
    const line = formatAccessLine(inv, Url.parse("dubbo://127.0.0.1:20880/demo.S"));
    assert.match(line, /describe\(java\.lang\.Object\) \[\[\[\[/);
    // Every level but the innermost (whose two elements are strings) refers back once.
    assert.equal(line.split('{"$ref":"shared"}').length - 1, 59);
  });
});
