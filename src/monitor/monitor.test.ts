import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDubbo } from "../app/index.js";
import { BizError, Code, defineService, java, RpcError, silentLogger } from "../index.js";
import { waitFor } from "../testing/index.js";
import type { CallFinished, CallStarted } from "./events.js";

const Greeter = defineService("com.example.Greeter", {
  greet: { args: [java.String], returns: java.String },
  fail: { args: [java.String], returns: java.void },
});

const impl = {
  greet: (name: string) => `hi ${name}`,
  fail: (why: string) => {
    throw new BizError(why, { javaClass: "java.lang.IllegalStateException" });
  },
};

describe("monitor events", () => {
  it("calls - consumer and provider each emit started and finished with site, peer and outcome", async () => {
    await using provider = await createDubbo({
      application: { name: "p" },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
      env: false,
    });
    const exported = await provider.export(Greeter, impl, { scope: "remote", version: "1.0.0", group: "g" });
    const port = exported.urls[0]!.port;
    await using consumer = await createDubbo({ application: { name: "c" }, env: false });
    const greeter = await consumer.refer(Greeter, {
      url: `dubbo://127.0.0.1:${port}`,
      version: "1.0.0",
      group: "g",
    });
    const started: CallStarted[] = [];
    const finished: CallFinished[] = [];
    for (const app of [provider, consumer]) {
      app.extensions.monitor.on("callStarted", (e) => started.push(e));
      app.extensions.monitor.on("callFinished", (e) => finished.push(e));
    }
    assert.equal(await greeter.greet("ann"), "hi ann");
    await assert.rejects(greeter.fail("no"), BizError);

    assert.deepEqual(started.map((e) => `${e.site.side} ${e.site.application} ${e.method}`).sort(), [
      "consumer c fail",
      "consumer c greet",
      "provider p fail",
      "provider p greet",
    ]);
    const consumerGreet = finished.find((e) => e.site.side === "consumer" && e.method === "greet")!;
    assert.deepEqual(consumerGreet.site, {
      side: "consumer",
      application: "c",
      service: "com.example.Greeter",
      group: "g",
      version: "1.0.0",
    });
    assert.equal(consumerGreet.peer, `127.0.0.1:${port}`);
    assert.equal(consumerGreet.outcome, "success");
    assert.ok(consumerGreet.durationMs >= 0);
    const providerFail = finished.find((e) => e.site.side === "provider" && e.method === "fail")!;
    assert.equal(providerFail.outcome, "business");
    assert.match(providerFail.peer, /^127\.0\.0\.1:\d+$/);
  });

  it("calls - a timed-out attempt finishes as a timeout with its code", async () => {
    await using provider = await createDubbo({
      application: { name: "p" },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
      env: false,
    });
    const slow = {
      greet: () => new Promise<string>((r) => setTimeout(() => r("late"), 200)),
      fail: () => {},
    };
    const port = (await provider.export(Greeter, slow, { scope: "remote" })).urls[0]!.port;
    await using consumer = await createDubbo({ application: { name: "c" }, env: false });
    const finished: CallFinished[] = [];
    consumer.extensions.monitor.on("callFinished", (e) => finished.push(e));
    const greeter = await consumer.refer(Greeter, {
      url: `dubbo://127.0.0.1:${port}`,
      timeoutMs: 20,
      retries: 0,
    });
    await assert.rejects(
      greeter.greet("x"),
      (e: unknown) => e instanceof RpcError && e.code === Code.DeadlineExceeded,
    );
    assert.deepEqual(
      finished.map((e) => [e.outcome, e.code]),
      [["timeout", Code.DeadlineExceeded]],
    );
  });

  it("connections and a full pool - links up and down on both sides, a refused call is saturation and a limit", async () => {
    const provider = await createDubbo({
      application: { name: "p" },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0, threads: 1, queues: 0 },
      env: false,
    });
    const events: string[] = [];
    provider.extensions.monitor.on("connectionUp", (e) => events.push(`provider up ${e.role}`));
    provider.extensions.monitor.on("connectionDown", (e) => events.push(`provider down ${e.role}`));
    provider.extensions.monitor.on("threadPoolSaturated", (e) =>
      events.push(`saturated ${e.active}/${e.queued}`),
    );
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const busy = {
      greet: async () => {
        await held;
        return "done";
      },
      fail: () => {},
    };
    const port = (await provider.export(Greeter, busy, { scope: "remote" })).urls[0]!.port;
    try {
      const consumer = await createDubbo({ application: { name: "c" }, env: false });
      consumer.extensions.monitor.on("connectionUp", (e) => events.push(`consumer up ${e.role} ${e.peer}`));
      const outcomes: string[] = [];
      consumer.extensions.monitor.on("callFinished", (e) => outcomes.push(e.outcome));
      const greeter = await consumer.refer(Greeter, { url: `dubbo://127.0.0.1:${port}`, retries: 0 });
      const first = greeter.greet("a");
      await waitFor("the link to the provider", () => events.includes("provider up server"));
      await assert.rejects(
        greeter.greet("b"),
        (e: unknown) => e instanceof RpcError && e.code === Code.ResourceExhausted,
      );
      release();
      assert.equal(await first, "done");
      await consumer.stop();
      await waitFor("the provider to see the link go", () => events.includes("provider down server"));
      assert.ok(events.includes(`consumer up client 127.0.0.1:${port}`), events.join("; "));
      assert.ok(events.includes("saturated 1/0"), events.join("; "));
      assert.deepEqual(outcomes, ["limit", "success"]);
    } finally {
      release();
      await provider.stop();
    }
  });

  it("listeners - one that throws is logged, the call and the other listeners go on", async () => {
    const warnings: string[] = [];
    await using app = await createDubbo({
      application: { name: "t" },
      env: false,
      logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) },
    });
    await app.export(Greeter, impl, { scope: "local" });
    const greeter = await app.refer(Greeter);
    let seen = 0;
    const off = app.extensions.monitor.on("callFinished", () => {
      throw new Error("broken listener");
    });
    app.extensions.monitor.on("callFinished", () => seen++);
    assert.equal(await greeter.greet("a"), "hi a");
    off();
    assert.equal(await greeter.greet("b"), "hi b");
    assert.ok(seen >= 2);
    assert.ok(warnings.some((w) => /callFinished listener of the monitor failed/.test(w)));
  });
});
