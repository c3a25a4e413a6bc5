import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import { describe, it } from "node:test";
import { Code, RpcError, silentLogger } from "../../../core/index.js";
import { createManagedConnection, type Logger } from "../../../transport/index.js";
import { HEADER_LENGTH } from "../framing/index.js";
import { hessian2EventCodec } from "./event-codec.js";
import { createExchangeClient, type ExchangeClient } from "./exchange-client.js";
import { createExchangeServer, type RequestHandler } from "./exchange-server.js";
import { encodeHeader, FLAG_EVENT, FLAG_REQUEST, FLAG_TWOWAY } from "./header.js";
import { Status } from "./status.js";

const call = { service: "org.apache.dubbo.demo.DemoService", method: "sayHello" };
const quiet: Logger = silentLogger;

function until(predicate: () => boolean, what: string, limitMs = 5000): Promise<void> {
  return waitFor(what, predicate, limitMs);
}

const echo: RequestHandler = (req) => Buffer.concat([Buffer.from("echo:"), req.body]);

async function startServer(
  handler: RequestHandler = echo,
  extra: { payloadLimit?: number; port?: number } = {},
) {
  return createExchangeServer({ host: "127.0.0.1", port: extra.port ?? 0, handler, logger: quiet, ...extra });
}

async function openClient(port: number, extra: Partial<Parameters<typeof createExchangeClient>[0]> = {}) {
  const client = createExchangeClient({ host: "127.0.0.1", port, logger: quiet, ...extra });
  await client.connect();
  return client;
}

/** A raw TCP peer for the cases where the other side must misbehave or be watched byte for byte. */
async function rawServer(
  onSocket: (socket: Socket) => void,
): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

async function closeRaw(raw: { server: Server; sockets: Socket[] }): Promise<void> {
  for (const s of raw.sockets) s.destroy();
  await new Promise((r) => raw.server.close(r));
}

describe("exchange", () => {
  it("exchange - a request round-trips its body and the response carries the request's id", async () => {
    const server = await startServer();
    const client = await openClient(server.port);
    try {
      const first = await client.request(Buffer.from("a"), call, 1000);
      const second = await client.request(Buffer.from("b"), call, 1000);
      assert.equal(first.body.toString(), "echo:a");
      assert.equal(second.body.toString(), "echo:b");
      assert.equal(second.id, first.id + 1);
      assert.equal(first.serializationId, 2);
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - a framed request resolves with what its reader makes of the response, or rejects with what it throws", async () => {
    const server = await startServer();
    const client = await openClient(server.port);
    const framed = (body: string) => Buffer.concat([Buffer.alloc(HEADER_LENGTH), Buffer.from(body)]);
    try {
      const length = await client.requestFramed(framed("abc"), call, 1000, undefined, (body) => body.length);
      assert.equal(length, "echo:abc".length);
      const refused = new RpcError("the reader refused it", Code.Internal);
      await assert.rejects(
        client.requestFramed(framed("x"), call, 1000, undefined, () => {
          throw refused;
        }),
        (e: unknown) => e === refused,
      );
      assert.equal(client.pendingCount, 0, "a call whose reader threw is not left waiting");
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - the server echoes any 64-bit id bit for bit, negative ones included", async () => {
    const server = await startServer();
    const ids = [-1n, -(2n ** 63n), 2n ** 63n - 1n, 0x0123456789abcdefn];
    const seen: Buffer[] = [];
    const socket = await new Promise<Socket>((resolve) => {
      const s = new (require_net().Socket)();
      s.connect(server.port, "127.0.0.1", () => resolve(s));
    });
    socket.on("data", (chunk: Buffer) => seen.push(chunk));
    try {
      for (const id of ids) {
        socket.write(encodeHeader(FLAG_REQUEST | FLAG_TWOWAY | 2, 0, id, 1));
        socket.write(Buffer.from("x"));
      }
      const expectedBytes = ids.length * (16 + 6);
      await until(() => Buffer.concat(seen).length >= expectedBytes, "four responses");
      const all = Buffer.concat(seen);
      ids.forEach((id, i) => {
        const frame = all.subarray(i * 22, (i + 1) * 22);
        const sent = encodeHeader(0, 0, id, 0).subarray(4, 12);
        assert.deepEqual(frame.subarray(4, 12), sent, `id ${id}`);
        assert.equal(frame[3], Status.OK);
      });
    } finally {
      socket.destroy();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - a timed-out call is removed and names service, method, address and elapsed ms", async () => {
    const server = await startServer(() => new Promise<Buffer>(() => {}));
    const client = await openClient(server.port);
    try {
      await assert.rejects(client.request(Buffer.from("x"), call, 30), (e: unknown) => {
        assert.ok(e instanceof RpcError);
        assert.equal(e.code, Code.DeadlineExceeded);
        assert.match(e.message, /org\.apache\.dubbo\.demo\.DemoService\.sayHello/);
        assert.match(e.message, new RegExp(`127\\.0\\.0\\.1:${server.port}`));
        assert.match(e.message, /after \d+ ms \(timeout 30 ms\)/);
        assert.match(e.message, /`timeoutMs`.*`timeout`/, "the hint names the option and the Dubbo key");
        return true;
      });
      assert.equal(client.pendingCount, 0);
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - an abort removes the pending call at once and rejects it with Canceled", async () => {
    const server = await startServer(() => new Promise<Buffer>(() => {}));
    const client = await openClient(server.port);
    try {
      const controller = new AbortController();
      const pending = client.request(Buffer.from("x"), call, 60_000, controller.signal);
      const other = client.request(Buffer.from("y"), call, 60_000);
      await until(() => server.inFlight === 2, "the server to hold both calls");
      controller.abort();
      assert.equal(client.pendingCount, 1, "the aborted call left the pending map synchronously");
      await assert.rejects(pending, (e: unknown) => {
        assert.ok(e instanceof RpcError);
        assert.equal(e.code, Code.Canceled);
        assert.match(e.message, new RegExp(`sayHello to 127\\.0\\.0\\.1:${server.port}`));
        return true;
      });
      await assert.rejects(
        client.request(Buffer.from("z"), call, 60_000, controller.signal),
        (e: unknown) => e instanceof RpcError && e.code === Code.Canceled && /before sending/.test(e.message),
      );
      assert.equal(client.pendingCount, 1, "an already aborted request is never registered");
      for (const ch of server.channels) ch.destroy();
      await assert.rejects(other, (e: unknown) => e instanceof RpcError && e.code === Code.Unavailable);
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - when the link drops every pending call fails at once with Unavailable", async () => {
    const server = await startServer(() => new Promise<Buffer>(() => {}));
    const client = await openClient(server.port);
    try {
      const calls = [1, 2, 3].map(() => client.request(Buffer.from("x"), call, 60_000));
      await until(() => server.inFlight === 3, "the server to hold three calls");
      for (const ch of server.channels) ch.destroy();
      const results = await Promise.allSettled(calls);
      for (const r of results) {
        assert.equal(r.status, "rejected");
        const e = (r as PromiseRejectedResult).reason as RpcError;
        assert.equal(e.code, Code.Unavailable);
        assert.match(e.message, /sayHello/);
      }
      assert.equal(client.pendingCount, 0);
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - a non-OK status becomes an RpcError with the mapped code and the provider's message", async () => {
    const server = await startServer((req) => {
      if (req.body.toString() === "busy")
        return { status: Status.SERVER_THREADPOOL_EXHAUSTED_ERROR, message: "pool full" };
      throw new RpcError("no such service", Code.Unimplemented);
    });
    const client = await openClient(server.port);
    try {
      await assert.rejects(client.request(Buffer.from("busy"), call, 1000), (e: unknown) => {
        return e instanceof RpcError && e.code === Code.ResourceExhausted && /pool full/.test(e.message);
      });
      await assert.rejects(client.request(Buffer.from("x"), call, 1000), (e: unknown) => {
        return e instanceof RpcError && e.code === Code.Unimplemented && /no such service/.test(e.message);
      });
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - a pending reply is answered from its outcome, one-way ones settled and dropped", async () => {
    const settled: string[] = [];
    const server = await startServer((req) => {
      const text = req.body.toString();
      return {
        outcome:
          text === "fail" || text === "refuse" ? Promise.reject(new Error(text)) : Promise.resolve(text),
        reply(value: unknown) {
          settled.push(`reply ${String(value)}`);
          return { body: Buffer.from(`done:${String(value)}`) };
        },
        replyToError(error: unknown) {
          settled.push(`error ${(error as Error).message}`);
          if (text === "refuse") throw new RpcError("refused here", Code.Unimplemented);
          return { status: Status.SERVICE_ERROR, message: `failed: ${(error as Error).message}` };
        },
      };
    });
    const client = await openClient(server.port);
    try {
      assert.equal((await client.request(Buffer.from("a"), call, 1000)).body.toString(), "done:a");
      await assert.rejects(client.request(Buffer.from("fail"), call, 1000), /failed: fail/);
      await assert.rejects(
        client.request(Buffer.from("refuse"), call, 1000),
        (e: unknown) =>
          e instanceof RpcError && e.code === Code.Unimplemented && /refused here/.test(e.message),
      );
      client.send(Buffer.from("one-way"), call);
      await until(() => settled.includes("reply one-way"), "the one-way call settled");
      assert.deepEqual(settled, ["reply a", "error fail", "error refuse", "reply one-way"]);
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - a request over the provider's payload gets BAD_REQUEST and the link keeps working", async () => {
    const server = await startServer(echo, { payloadLimit: 300 });
    const client = await openClient(server.port);
    try {
      await assert.rejects(client.request(Buffer.alloc(400), call, 1000), (e: unknown) => {
        return (
          e instanceof RpcError &&
          e.code === Code.InvalidArgument &&
          /400 bytes/.test(e.message) &&
          /`payload`/.test(e.message)
        );
      });
      const ok = await client.request(Buffer.from("small"), call, 1000);
      assert.equal(ok.body.toString(), "echo:small");
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - a response over the provider's payload gets BAD_RESPONSE instead of silence", async () => {
    const server = await startServer(() => Buffer.alloc(500), { payloadLimit: 300 });
    const client = await openClient(server.port);
    try {
      await assert.rejects(client.request(Buffer.from("x"), call, 1000), (e: unknown) => {
        return e instanceof RpcError && e.code === Code.Internal && /500 bytes/.test(e.message);
      });
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - garbage bytes get a text answer and a close, and the server keeps serving others", async () => {
    const server = await startServer();
    const good = await openClient(server.port);
    const net = require_net();
    const bad = new net.Socket();
    const reply: Buffer[] = [];
    const closed = new Promise<void>((resolve) => bad.on("close", () => resolve()));
    bad.on("data", (c: Buffer) => reply.push(c));
    bad.on("error", () => {});
    bad.connect(server.port, "127.0.0.1", () => bad.write("GET / HTTP/1.1\r\n\r\n"));
    try {
      await closed;
      assert.match(Buffer.concat(reply).toString(), /Dubbo 2/);
      const ok = await good.request(Buffer.from("still"), call, 1000);
      assert.equal(ok.body.toString(), "echo:still");
    } finally {
      await good.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - an idle client sends heartbeats, the server answers them, and the link stays up", async () => {
    const server = await startServer();
    // 100 ms leaves a loaded machine room to answer within the 300 ms idle limit.
    const client = await openClient(server.port, { heartbeatMs: 100 });
    try {
      const readBefore = client.channel!.lastReadAt;
      await until(() => client.channel!.lastReadAt > readBefore, "a heartbeat answer");
      await new Promise((r) => setTimeout(r, 400)); // longer than 3 × heartbeat: answered beats keep it up
      assert.equal(client.isConnected, true);
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - the client answers the provider's heartbeat with an event response to the same id", async () => {
    const seen: Buffer[] = [];
    const raw = await rawServer((socket) => {
      socket.on("data", (c: Buffer) => seen.push(c));
      const body = hessian2EventCodec.encodeEvent(null);
      socket.write(
        Buffer.concat([encodeHeader(FLAG_REQUEST | FLAG_TWOWAY | FLAG_EVENT | 2, 0, -5n, 1), body]),
      );
    });
    const client = await openClient(raw.port, { heartbeatMs: 0 });
    try {
      await until(() => Buffer.concat(seen).length >= 17, "the heartbeat answer");
      const frame = Buffer.concat(seen);
      assert.equal(frame[2]! & FLAG_EVENT, FLAG_EVENT);
      assert.equal(frame[2]! & FLAG_REQUEST, 0);
      assert.equal(frame[3], Status.OK);
      assert.equal(frame.readBigInt64BE(4), -5n);
      assert.equal(frame[16], 0x4e);
    } finally {
      await client.close();
      await closeRaw(raw);
    }
  });

  it("exchange - a half-open link (peer silent) is closed after the heartbeat timeout and reconnected", async () => {
    const raw = await rawServer((socket) => socket.pause());
    const client = createExchangeClient({
      host: "127.0.0.1",
      port: raw.port,
      heartbeatMs: 40,
      logger: quiet,
    });
    const managed = createManagedConnection(client, {
      backoff: { initialMs: 10, random: () => 0.5 },
      logger: quiet,
    });
    try {
      assert.equal(await managed.establish(), true);
      await until(() => raw.sockets.length >= 2, "a second connection after the idle close");
      await until(() => managed.state === "alive", "the new link");
    } finally {
      await managed.close();
      await closeRaw(raw);
    }
  });

  it("exchange - the client reconnects with backoff when the provider returns on the same port", async () => {
    let server = await startServer();
    const port = server.port;
    const client = createExchangeClient({ host: "127.0.0.1", port, logger: quiet });
    const managed = createManagedConnection(client, {
      backoff: { initialMs: 20, periodMs: 100, random: () => 0.5 },
      doubleCheckMs: 0,
      logger: quiet,
    });
    try {
      await managed.get();
      await server.close({ waitMs: 0 });
      await until(
        () => managed.state === "retrying" || managed.state === "connecting",
        "the drop to be seen",
      );
      await assert.rejects(
        managed.get(),
        (e: unknown) => e instanceof RpcError && e.code === Code.Unavailable,
      );
      server = await startServer(echo, { port });
      await until(() => managed.state === "alive", "the reconnect");
      const res = await (await managed.get()).request(Buffer.from("back"), call, 1000);
      assert.equal(res.body.toString(), "echo:back");
    } finally {
      await managed.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - READONLY from the provider makes the client unavailable at once", async () => {
    const server = await startServer();
    const client = await openClient(server.port);
    let notified = false;
    client.onReadOnly(() => {
      notified = true;
    });
    try {
      assert.equal(client.isAvailable, true);
      server.sendReadOnly();
      await until(() => client.isReadOnly, "the read-only mark");
      assert.equal(client.isAvailable, false);
      assert.equal(notified, true);
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });

  it("exchange - graceful close answers in-flight calls, marks clients read-only, then closes", async () => {
    const release: Array<() => void> = [];
    const server = await startServer(
      (req) =>
        new Promise<Buffer>((resolve) => {
          release.push(() => resolve(Buffer.concat([Buffer.from("done:"), req.body])));
        }),
    );
    const client: ExchangeClient = await openClient(server.port);
    try {
      const calls = [0, 1, 2, 3, 4].map((i) => client.request(Buffer.from(String(i)), call, 5000));
      await until(() => server.inFlight === 5, "five calls in flight");
      const closing = server.close({ waitMs: 5000 });
      await until(() => client.isReadOnly, "the READONLY event");
      await assert.rejects(client.request(Buffer.from("late"), call, 1000), (e: unknown) => {
        return e instanceof RpcError && e.code === Code.Unavailable && /shutting down/.test(e.message);
      });
      for (const r of release) r();
      const results = await Promise.all(calls);
      assert.deepEqual(
        results.map((r) => r.body.toString()),
        ["done:0", "done:1", "done:2", "done:3", "done:4"],
      );
      await closing;
      await until(() => !client.isConnected, "the link to close");
    } finally {
      await client.close();
    }
  });

  it("exchange - a request over the consumer's own payload is refused before sending", async () => {
    const server = await startServer();
    const client = await openClient(server.port, { payloadLimit: 10 });
    try {
      await assert.rejects(client.request(Buffer.alloc(11), call, 1000), (e: unknown) => {
        return (
          e instanceof RpcError &&
          e.code === Code.InvalidArgument &&
          /sayHello/.test(e.message) &&
          /11 bytes/.test(e.message)
        );
      });
      assert.equal(client.pendingCount, 0);
    } finally {
      await client.close();
      await server.close({ waitMs: 0 });
    }
  });
});

import { createRequire } from "node:module";
import { waitFor } from "../../../testing/index.js";

function require_net(): typeof import("node:net") {
  return createRequire(import.meta.url)("node:net") as typeof import("node:net");
}
