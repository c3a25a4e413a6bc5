// Deadlines of IDL streams through app.refer, as Java 3.3's TripleInvoker has them: `timeout` (the
// reference's, a method's, the 1000 ms default) bounds unary calls only; a stream sends no
// `grpc-timeout` and lives as long as its caller reads it. A per-call `timeoutMs` is the one
// deadline a stream has (a Node-side addition, as the standalone proto client takes it).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import type { FilterExtension } from "../../src/extension.js";
import { Code, RpcError } from "../../src/index.js";
import { collect, GreeterService, greeterImplementation } from "./greeter-peers.js";
import { triApps } from "./tri-apps.js";

const apps = triApps();
let address = "";
/** The provider's view of each call: its method and whether it arrived with a deadline. */
const arrived: string[] = [];
const state = { oursEndings: [] as string[], produced: 0 };

before(async () => {
  const provider = await apps.provider("idl-stream-deadline-provider");
  const recorder: FilterExtension = {
    activate: { side: "provider" },
    filter: (next) => (inv) => {
      arrived.push(`${inv.method} ${inv.deadline === undefined ? "no deadline" : "deadline"}`);
      return next(inv);
    },
  };
  provider.extensions.filter.register("record-deadline", recorder);
  const exported = await provider.export(GreeterService, greeterImplementation(state), { scope: "remote" });
  address = exported.urls[0]!.address;
});

after(() => apps.stopAll());

/** Requests `gapMs` apart, so the client's half of the stream outlives `count × gapMs`. */
async function* slowRequests(count: number, gapMs: number) {
  for (let i = 0; i < count; i++) {
    await delay(gapMs);
    yield { name: `r${i}`, count: i };
  }
}

describe("IDL stream deadlines through app.refer", () => {
  test("idl stream deadline - streams outlive the default 1000 ms timeout and send no grpc-timeout; a unary call keeps it", async () => {
    const consumer = await apps.consumer("idl-stream-deadline-default");
    const greeter = await consumer.refer(GreeterService, { url: `tri://${address}`, retries: 0 });
    arrived.length = 0;
    // 6 replies 250 ms apart: about 1.5 s, past the default timeout.
    const countdown = await collect(greeter.countdown({ name: "long", count: 6, delayMs: 250 }));
    assert.deepEqual(
      countdown.map((r) => r.index),
      [6, 5, 4, 3, 2, 1],
    );
    const collected = await greeter.collect(slowRequests(5, 250));
    assert.deepEqual([collected.message, collected.index], ["r0,r1,r2,r3,r4", 5]);
    const chat = await collect(greeter.chat(slowRequests(5, 250)));
    assert.equal(chat.length, 5);
    await greeter.sayHello({ name: "quick" });
    assert.deepEqual(arrived, [
      "Countdown no deadline",
      "Collect no deadline",
      "Chat no deadline",
      "SayHello deadline",
    ]);
  });

  test("idl stream deadline - a reference or method timeout does not bound a stream; it still bounds a unary call", async () => {
    const consumer = await apps.consumer("idl-stream-deadline-configured");
    const greeter = await consumer.refer(GreeterService, {
      url: `tri://${address}`,
      retries: 0,
      timeoutMs: 200,
      methods: { Countdown: { timeoutMs: 100 } },
    });
    const countdown = await collect(greeter.countdown({ name: "long", count: 4, delayMs: 200 }));
    assert.equal(countdown.length, 4);
    await assert.rejects(greeter.sayHello({ name: "slow", delayMs: 5000 }), { code: Code.DeadlineExceeded });
  });

  test("idl stream deadline - a per-call timeoutMs is the stream's deadline: sent as grpc-timeout, DeadlineExceeded past it", async () => {
    const consumer = await apps.consumer("idl-stream-deadline-per-call");
    const greeter = await consumer.refer(GreeterService, { url: `tri://${address}`, retries: 0 });
    arrived.length = 0;
    const received: number[] = [];
    await assert.rejects(
      (async () => {
        const replies = greeter.countdown({ name: "s", count: 1000, delayMs: 20 }, { timeoutMs: 300 });
        for await (const reply of replies) received.push(reply.index);
      })(),
      // The provider's end of its own deadline and the consumer's reset race: either is DeadlineExceeded.
      (e: unknown) => e instanceof RpcError && e.code === Code.DeadlineExceeded,
    );
    assert.ok(received.length > 0 && received.length < 1000, "the stream answered, then hit its deadline");
    assert.deepEqual(arrived, ["Countdown deadline"]);
  });
});
