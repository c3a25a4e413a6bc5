// Triple's deadlines run on a timer wheel, never one setTimeout per call: an application's tri
// references on the application's one wheel (shared with its other protocols), a standalone
// proto client on its own, one timer per distinct timeout however many calls wait; and so do the
// IDL calls a provider serves with a `grpc-timeout`.
import assert from "node:assert/strict";
import { once, setMaxListeners } from "node:events";
import { connect, createServer, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import { DeadlineTimers, type Invoker, type TimedEntry } from "../../src/core/index.js";
import type { Plugin } from "../../src/extension.js";
import {
  createDubbo,
  createProtoClient,
  createProtoServer,
  RpcError,
  silentLogger,
  type Url,
} from "../../src/index.js";
import { GreeterService, greeterImplementation } from "./greeter-peers.js";
import { triApps } from "./tri-apps.js";

const apps = triApps();
after(() => apps.stopAll());

/** Timers that keep the process alive right now (a waiting `setTimeout` is one each). */
function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
}

describe("Triple deadlines on a timer wheel", () => {
  test("deadline wheel - a standalone proto client keeps one timer for many waiting calls with one timeout", async () => {
    // A bare HTTP/2 server that holds every stream unanswered: no timer of its own in this process.
    const held: ServerHttp2Stream[] = [];
    const server = createServer();
    server.on("stream", (stream) => {
      stream.on("error", () => {});
      held.push(stream);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const { client, close } = await createProtoClient(GreeterService, {
      address: `127.0.0.1:${port}`,
      timeoutMs: 30_000,
      heartbeatMs: 0,
    });
    const heldReach = async (count: number) => {
      // Each wait's own timer has fired (and gone) by the time the loop ends.
      for (let i = 0; i < 1000 && held.length < count; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(held.length, count, "every call reached the server and waits");
    };
    const stop = new AbortController();
    setMaxListeners(64, stop.signal);
    const options = { signal: stop.signal };
    try {
      const calls = [client.sayHello({ name: "warm" }, options).catch((e: unknown) => e)];
      await heldReach(1);
      const before = activeTimers();
      for (let i = 0; i < 40; i++)
        calls.push(client.sayHello({ name: `n${i}` }, options).catch((e: unknown) => e));
      await heldReach(41);
      const added = activeTimers() - before;
      assert.ok(added <= 1, `40 more waiting calls added ${added} timers; a wheel adds at most one`);
      stop.abort();
      for (const outcome of await Promise.all(calls)) assert.ok(outcome instanceof RpcError);
    } finally {
      stop.abort();
      await close();
      server.close();
    }
  });

  test("deadline wheel - a proto server keeps one timer for many waiting IDL calls with one grpc-timeout", async () => {
    // Handlers that wait until released, reading no signal, so no timer of theirs is counted.
    const waiting: Array<() => void> = [];
    const server = await createProtoServer({ host: "127.0.0.1", port: 0, logger: silentLogger });
    server.add(GreeterService, {
      ...greeterImplementation({ oursEndings: [], produced: 0 }),
      sayHello: () => new Promise((resolve) => waiting.push(() => resolve({ message: "released" }))),
    });
    // A bare HTTP/2 client: no timer of its own in this process.
    const session = connect(`http://127.0.0.1:${server.port}`);
    const statuses: Array<Promise<string | undefined>> = [];
    const call = () => {
      const stream = session.request({
        ":method": "POST",
        ":path": "/dubbo.tri.test.Greeter/SayHello",
        "content-type": "application/grpc+proto",
        te: "trailers",
        "grpc-timeout": "30S",
      });
      stream.on("data", () => {});
      statuses.push(
        new Promise((resolve) =>
          stream.once("trailers", (trailers) => resolve(String(trailers["grpc-status"]))),
        ),
      );
      // One empty HelloRequest, 5-byte framed.
      stream.end(Buffer.alloc(5));
    };
    const waitingReach = async (count: number) => {
      for (let i = 0; i < 1000 && waiting.length < count; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(waiting.length, count, "every call reached its handler and waits");
    };
    try {
      call();
      await waitingReach(1);
      const before = activeTimers();
      for (let i = 0; i < 40; i++) call();
      await waitingReach(41);
      const added = activeTimers() - before;
      assert.ok(
        added <= 1,
        `40 more waiting IDL calls added ${added} timers on the server; a wheel adds at most one`,
      );
      for (const release of waiting) release();
      assert.deepEqual(new Set(await Promise.all(statuses)), new Set(["0"]));
    } finally {
      session.close();
      await server.close();
    }
  });

  test("deadline wheel - an application's tri references run their timeouts on the application's one wheel", async () => {
    let appWheel: DeadlineTimers | undefined;
    // A protocol that only records the wheel its application hands every protocol.
    const recorder: Plugin = {
      name: "wheel-recorder",
      register: (points) => {
        points.protocol.register("wheelspy", (context) => {
          appWheel = context.deadlines;
          return {
            name: "wheelspy",
            defaultPort: 1,
            export: () => Promise.reject(new Error("wheelspy exports nothing")),
            refer: async (url: Url): Promise<Invoker> => ({
              url,
              invoke: () => Promise.reject(new Error("wheelspy calls nothing")),
              isAvailable: () => true,
              destroy: async () => {},
            }),
            destroy: async () => {},
          };
        });
      },
    };
    const provider = await apps.provider("wheel-provider");
    const exported = await provider.export(
      GreeterService,
      greeterImplementation({ oursEndings: [], produced: 0 }),
      {
        scope: "remote",
      },
    );
    const consumer = await createDubbo({
      application: { name: "wheel-consumer" },
      env: false,
      logger: silentLogger,
      plugins: [recorder],
    });
    const wheels = new Set<DeadlineTimers>();
    const add = DeadlineTimers.prototype.add;
    DeadlineTimers.prototype.add = function (this: DeadlineTimers, entry: TimedEntry, timeoutMs: number) {
      wheels.add(this);
      add.call(this, entry, timeoutMs);
    };
    try {
      await consumer.refer(GreeterService, { url: "wheelspy://127.0.0.1:1", check: false });
      assert.ok(appWheel !== undefined, "the application created the recording protocol");
      const greeter = await consumer.refer(GreeterService, { url: `tri://${exported.urls[0]!.address}` });
      assert.equal((await greeter.sayHello({ name: "w" })).message, "hello w from nobody");
      assert.ok(wheels.has(appWheel), "the tri call's timeout ran on the application's wheel");
    } finally {
      DeadlineTimers.prototype.add = add;
      await consumer.stop();
    }
  });
});
