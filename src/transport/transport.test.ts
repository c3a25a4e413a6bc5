import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import { describe, it } from "node:test";
import { Code, RpcError } from "../core/index.js";
import { dubboFramer } from "../protocol/dubbo/framing/index.js";
import { createRecordingLogger, waitFor } from "../testing/index.js";
import type { Channel, ChannelHandler } from "./channel.js";
import { connectTransport } from "./client.js";
import { listenTransport, type ServerHandler } from "./server.js";

function header(id: number, bodyLength: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeUInt16BE(0xdabb, 0);
  h[2] = 0xc2;
  h.writeBigInt64BE(BigInt(id), 4);
  h.writeInt32BE(bodyLength, 12);
  return h;
}

function recordingHandler(): ChannelHandler & {
  frames: Buffer[];
  closedCount: number;
  closedOnce: Promise<void>;
} {
  let onClosed: () => void = () => {};
  const closedOnce = new Promise<void>((resolve) => {
    onClosed = resolve;
  });
  const handler = {
    frames: [] as Buffer[],
    closedCount: 0,
    closedOnce,
    frame(_c: Channel, f: Buffer) {
      handler.frames.push(Buffer.from(f));
    },
    oversize() {},
    garbage() {},
    closed() {
      handler.closedCount += 1;
      onClosed();
    },
  };
  return handler;
}

const capturingLogger = createRecordingLogger;

function until(predicate: () => boolean, what: string, limitMs = 3000): Promise<void> {
  return waitFor(what, predicate, limitMs);
}

describe("transport", () => {
  it("transport - a body over `payload` is refused on send with the size, the limit and the setting", async () => {
    const server = await listenTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port: 0,
      handler: { ...recordingHandler(), connected() {} },
    });
    const channel = await connectTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port: server.port,
      payloadLimit: 100,
      handler: recordingHandler(),
    });
    try {
      assert.throws(
        () => channel.send(header(1, 101), Buffer.alloc(101)),
        (e: unknown) =>
          e instanceof RpcError &&
          e.code === Code.InvalidArgument &&
          /101 bytes/.test(e.message) &&
          /100 bytes/.test(e.message) &&
          /`payload`/.test(e.message),
      );
    } finally {
      channel.destroy();
      await server.close();
    }
  });

  it("transport - the server closes connections beyond `accepts` with a log and keeps serving the others", async () => {
    const logger = capturingLogger();
    const serverSide = recordingHandler();
    const server = await listenTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port: 0,
      accepts: 1,
      logger,
      handler: { ...serverSide, frame: serverSide.frame, connected() {} },
    });
    const first = await connectTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port: server.port,
      handler: recordingHandler(),
    });
    await until(() => server.channels.size === 1, "the first connection");
    const secondHandler = recordingHandler();
    const second = await connectTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port: server.port,
      handler: secondHandler,
    });
    try {
      await secondHandler.closedOnce;
      assert.equal(second.isConnected, false);
      assert.ok(logger.messages("warn").some((w) => /`accepts`/.test(w) && /1 connections/.test(w)));
      first.send(header(5, 2), Buffer.from("ok"));
      await until(() => serverSide.frames.length === 1, "the first client's frame");
      assert.equal(first.isConnected, true);
    } finally {
      first.destroy();
      await server.close();
    }
  });

  it("transport - a slow reader makes sends wait for drain, the wait is bounded, and nothing is lost", async () => {
    let peer: Socket | undefined;
    let received = 0;
    const raw: Server = createServer((socket) => {
      peer = socket;
      socket.pause();
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const port = (raw.address() as { port: number }).port;
    const channel = await connectTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port,
      sendQueueLimit: 1024 * 1024,
      handler: recordingHandler(),
    });
    try {
      const body = Buffer.alloc(64 * 1024, 1);
      let accepted = 0;
      let refused: unknown;
      let sawBackpressure = false;
      for (let i = 0; i < 4000 && refused === undefined; i++) {
        try {
          channel.send(header(i, body.length), body);
          accepted += 1;
        } catch (error) {
          refused = error;
        }
        if (channel.isBackpressured) sawBackpressure = true;
        if (i % 8 === 0) await new Promise((r) => setImmediate(r));
      }
      assert.ok(sawBackpressure, "the socket reported backpressure");
      assert.ok(
        refused instanceof RpcError && refused.code === Code.ResourceExhausted,
        "sends beyond the bound fail",
      );
      assert.match((refused as RpcError).message, /`sendqueue`/);
      assert.ok(channel.queuedBytes <= 1024 * 1024, "the queue stays within its bound");
      peer!.resume();
      await channel.whenDrained();
      const expected = accepted * (16 + body.length);
      await until(() => received === expected, `all ${expected} accepted bytes to arrive`, 10_000);
    } finally {
      channel.destroy();
      peer?.destroy();
      await new Promise((r) => raw.close(r));
    }
  });

  it("transport - whole frames sent in one tick, alone or with a separate body, arrive intact and in order", async () => {
    const serverSide = recordingHandler();
    const server = await listenTransport({
      framer: dubboFramer,
      port: 0,
      host: "127.0.0.1",
      handler: { ...serverSide, frame: (c, f) => serverSide.frame(c, f), connected() {} },
    });
    const channel = await connectTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port: server.port,
      handler: recordingHandler(),
    });
    try {
      const sent: Buffer[] = [];
      for (let i = 0; i < 20; i++) {
        const body = Buffer.alloc(100 + i, i);
        const frame = Buffer.concat([header(i, body.length), body]);
        sent.push(frame);
        if (i % 3 === 0) channel.send(header(i, body.length), body);
        else channel.sendFrame(frame);
      }
      await until(() => serverSide.frames.length === sent.length, "all 20 frames");
      assert.deepEqual(
        serverSide.frames.map((f) => f.toString("hex")),
        sent.map((f) => f.toString("hex")),
      );
      // A lone frame in a later tick goes out too (the first write of a tick is not held back).
      const last = Buffer.concat([header(99, 3), Buffer.from("end")]);
      channel.sendFrame(last);
      await until(() => serverSide.frames.length === sent.length + 1, "the lone frame");
      assert.equal(serverSide.frames.at(-1)?.toString("hex"), last.toString("hex"));
    } finally {
      channel.destroy();
      await server.close();
    }
  });

  it("transport - connecting to a closed port fails with Unavailable naming the address", async () => {
    const raw = createServer();
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const port = (raw.address() as { port: number }).port;
    await new Promise((r) => raw.close(r));
    await assert.rejects(
      connectTransport({ framer: dubboFramer, host: "127.0.0.1", port, handler: recordingHandler() }),
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.Unavailable && e.message.includes(`127.0.0.1:${port}`),
    );
  });

  it("transport - the server hands every accepted channel to its handler", async () => {
    const connected: Channel[] = [];
    const serverHandler: ServerHandler = { ...recordingHandler(), connected: (c) => connected.push(c) };
    const server = await listenTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port: 0,
      handler: serverHandler,
    });
    const channel = await connectTransport({
      framer: dubboFramer,
      host: "127.0.0.1",
      port: server.port,
      handler: recordingHandler(),
    });
    try {
      await until(() => connected.length === 1, "the server-side channel");
    } finally {
      channel.destroy();
      await server.close();
    }
  });
});
