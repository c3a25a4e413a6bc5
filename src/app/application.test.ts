import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BizError, Code, defineService, getRpcContext, java, RpcError, runWithRpcContext } from "../index.js";
import { createRecordingSink } from "../testing/index.js";
import { createDubbo } from "./application.js";

const Greeter = defineService("com.example.Greeter", {
  greet: { args: [java.String], returns: java.String },
  fail: { args: [java.String], returns: java.void },
});

const impl = {
  greet: (name: string) => `hi ${name} (${String(getRpcContext().getAttachment("tenant"))})`,
  fail: (why: string) => {
    throw new BizError(why, { javaClass: "java.lang.IllegalStateException" });
  },
};

describe("application", () => {
  it("injvm - exports and calls a service in-process with attachments, $echo and $invoke", async () => {
    await using app = await createDubbo({ application: { name: "t" }, env: false });
    await app.export(Greeter, impl, { scope: "local" });
    const greeter = await app.refer(Greeter);
    const answer = await runWithRpcContext(async (ctx) => {
      ctx.setAttachment("tenant", "acme");
      return greeter.greet("ann");
    });
    assert.equal(answer, "hi ann (acme)");
    assert.equal(await greeter.$echo(42), 42);
    const generic = await app.referGeneric("com.example.Greeter");
    assert.equal(await generic.$invoke("greet", ["java.lang.String"], ["bob"]), "hi bob (undefined)");
  });

  it("injvm - a provider's business exception reaches the caller as a BizError", async () => {
    await using app = await createDubbo({ application: { name: "t" }, env: false });
    await app.export(Greeter, impl, { scope: "local" });
    const greeter = await app.refer(Greeter);
    await assert.rejects(
      greeter.fail("no"),
      (e: unknown) =>
        e instanceof BizError && e.javaClass === "java.lang.IllegalStateException" && e.message === "no",
    );
  });

  it("refer - a reference with no provider address fails with advice", async () => {
    await using app = await createDubbo({ application: { name: "t" }, env: false });
    await assert.rejects(
      app.refer(Greeter),
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.FailedPrecondition && /give it a url/.test(e.message),
    );
  });

  it("config - bad settings fail at creation naming the key", async () => {
    await assert.rejects(
      createDubbo({ application: { name: "t" }, consumer: { timeoutMs: -1 }, env: false }),
      /consumer\.timeoutMs/,
    );
  });

  it("dubbo - exports on a free port and a reference with url= calls it over TCP", async () => {
    await using provider = await createDubbo({
      application: { name: "p" },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
      env: false,
    });
    const exported = await provider.export(Greeter, impl, { scope: "remote" });
    const address = exported.urls[0]!;
    assert.ok(address.port > 0, "the bound port is reported");
    await using consumer = await createDubbo({ application: { name: "c" }, env: false });
    const greeter = await consumer.refer(Greeter, { url: `dubbo://127.0.0.1:${address.port}` });
    const answer = await runWithRpcContext(async (ctx) => {
      ctx.setAttachment("tenant", "remote");
      return greeter.greet("cy");
    });
    assert.equal(answer, "hi cy (remote)");
    await assert.rejects(greeter.fail("why"), (e: unknown) => e instanceof BizError && e.message === "why");
  });

  it("config - an unknown extension name fails at creation, listing the registered ones", async () => {
    await assert.rejects(
      // @ts-expect-error: misspelt on purpose; the start-time check is what this test covers
      createDubbo({ application: { name: "t" }, consumer: { loadbalance: "leastactiv" }, env: false }),
      /consumer\.loadbalance: "leastactiv" names no loadbalance \(registered: random, roundrobin, leastactive/,
    );
    await assert.rejects(
      createDubbo({
        application: { name: "t" },
        // @ts-expect-error: an unknown name on purpose; the start-time check is what this test covers
        protocol: { name: "dubbo", threadpool: "huge" },
        env: false,
      }),
      /protocols\.dubbo\.threadpool: "huge" names no threadpool/,
    );
    await using app = await createDubbo({ application: { name: "t" }, env: false });
    await assert.rejects(
      // @ts-expect-error: misspelt on purpose; the refer-time check is what this test covers
      app.refer(Greeter, { url: "dubbo://127.0.0.1:1", cluster: "failovr" }),
      /references\.com\.example\.Greeter\.cluster: "failovr" names no cluster/,
    );
  });

  it("config - export and refer take dubbo.yaml and DUBBO_* settings by interface name and id", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dubbo-ts-app-config-"));
    try {
      const providerYaml = join(dir, "provider.yaml");
      await writeFile(
        providerYaml,
        [
          "dubbo:",
          "  application: { name: p }",
          "  protocol: { name: dubbo, host: 127.0.0.1, port: -1 }",
          "  service:",
          "    com.example.Greeter: { timeout: 1500, weight: 5 }",
        ].join("\n"),
      );
      await using provider = await createDubbo({
        configFile: providerYaml,
        env: { DUBBO_SERVICE_COM_EXAMPLE_GREETER_WEIGHT: "9" },
      });
      const exported = await provider.export(Greeter, impl, { scope: "remote", weight: 7 });
      const url = exported.urls[0]!;
      assert.equal(url.get("timeout"), "1500", "the file's dubbo.service.{interface}");
      assert.equal(url.get("weight"), "9", "the environment over code");

      const consumerYaml = join(dir, "consumer.yaml");
      await writeFile(
        consumerYaml,
        "dubbo:\n  application: { name: c }\n  references:\n    greeter: { interface: com.example.Greeter }\n",
      );
      await using consumer = await createDubbo({
        configFile: consumerYaml,
        env: { DUBBO_REFERENCES_GREETER_URL: `dubbo://127.0.0.1:${url.port}` },
      });
      // No url in code: it comes from the environment, for the file's entry of this interface.
      const greeter = await consumer.refer(Greeter);
      assert.equal(await greeter.greet("env"), "hi env (undefined)");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("logging - a pino-shaped logger gets the records; DUBBO_TRACE=app switches on the app's debug records", async () => {
    const { sink: pino, records } = createRecordingSink();
    for (const trace of [undefined, "app"]) {
      records.length = 0;
      await using app = await createDubbo({
        application: { name: "t" },
        env: trace === undefined ? {} : { DUBBO_TRACE: trace },
        logger: pino,
        shutdownHook: false,
      });
      await app.export(Greeter, impl, { scope: "local" });
      await app.refer(Greeter);
      assert.equal(records[0]?.level, "info");
      assert.equal(records[0]?.message, "exported com.example.Greeter in-process only");
      const debug = records.filter((r) => r.level === "debug");
      if (trace === undefined) assert.deepEqual(debug, []);
      else {
        assert.equal(debug.length, 1);
        assert.equal(debug[0]!.category, "app");
        assert.match(debug[0]!.message, /^referred consumer:\/\/.*com\.example\.Greeter/);
      }
    }
  });

  it("stop - the access log file gets every line, also those of the last seconds", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dubbo-ts-app-accesslog-"));
    const file = join(dir, "access.log");
    try {
      const provider = await createDubbo({
        application: { name: "p" },
        protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
        provider: { accesslog: file },
        env: false,
        shutdownHook: false,
      });
      const exported = await provider.export(Greeter, impl, { scope: "remote" });
      await using consumer = await createDubbo({
        application: { name: "c" },
        env: false,
        shutdownHook: false,
      });
      const greeter = await consumer.refer(Greeter, { url: `dubbo://127.0.0.1:${exported.urls[0]!.port}` });
      for (const name of ["a", "b", "c"]) await greeter.greet(name);
      await provider.stop();
      const lines = (await readFile(file, "utf8")).trim().split("\n");
      assert.deepEqual(
        lines.map((l) => /greet\(java\.lang\.String\) \["(\w)"\]$/.exec(l)?.[1]),
        ["a", "b", "c"],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("stop - unexports services; the application refuses new work afterwards", async () => {
    const app = await createDubbo({ application: { name: "t" }, env: false });
    await app.export(Greeter, impl, { scope: "local" });
    const greeter = await app.refer(Greeter);
    await app.stop();
    await assert.rejects(greeter.greet("x"), RpcError);
    await assert.rejects(app.refer(Greeter), /stopped/);
    await app.stop();
  });
});
