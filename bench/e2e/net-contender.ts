// The ceiling: a raw node:net length-prefixed echo with request ids, written as an RPC stack
// writes: the client sends one write per call and the server answers every frame with its own
// write (no batching of many frames into one write). Values cross as UTF-8 text and JSON.
import { createServer, connect as netConnect, type Server, type Socket } from "node:net";
import type { BenchUser, Contender, EchoClient, EchoServer } from "./workloads.js";

/** [u32 body length][u32 request id][body] */
const HEADER = 8;

type FrameHandler = (id: number, body: Buffer, frame: Buffer) => void;

/** Splits a byte stream into frames; keeps a partial frame across chunks. */
function createFrameReader(onFrame: FrameHandler): (chunk: Buffer) => void {
  let rest: Buffer | undefined;
  return (chunk) => {
    let buf = rest === undefined ? chunk : Buffer.concat([rest, chunk]);
    rest = undefined;
    let offset = 0;
    while (buf.length - offset >= HEADER) {
      const length = buf.readUInt32BE(offset);
      const end = offset + HEADER + length;
      if (end > buf.length) break;
      onFrame(buf.readUInt32BE(offset + 4), buf.subarray(offset + HEADER, end), buf.subarray(offset, end));
      offset = end;
    }
    if (offset < buf.length) {
      buf = buf.subarray(offset);
      rest = Buffer.from(buf);
    }
  };
}

function startServer(): Promise<EchoServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    // Node never reuses a received chunk, so the frame can be written back without a copy.
    socket.on(
      "data",
      createFrameReader((_id, _body, frame) => {
        socket.write(frame);
      }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

function connect(port: number): Promise<EchoClient> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ port, host: "127.0.0.1", noDelay: true });
    const pending = new Map<number, (body: Buffer) => void>();
    let nextId = 0;
    socket.on(
      "data",
      createFrameReader((id, body) => {
        const done = pending.get(id);
        if (done === undefined) return;
        pending.delete(id);
        done(body);
      }),
    );
    const call = (payload: Buffer): Promise<Buffer> =>
      new Promise((done) => {
        nextId = (nextId + 1) >>> 0;
        const id = nextId;
        const frame = Buffer.allocUnsafe(HEADER + payload.length);
        frame.writeUInt32BE(payload.length, 0);
        frame.writeUInt32BE(id, 4);
        payload.copy(frame, HEADER);
        pending.set(id, done);
        socket.write(frame);
      });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      socket.on("error", () => socket.destroy());
      resolve({
        echoText: async (text) => (await call(Buffer.from(text, "utf8"))).toString("utf8"),
        echoUser: async (user) =>
          JSON.parse((await call(Buffer.from(JSON.stringify(user), "utf8"))).toString("utf8")) as BenchUser,
        close: async () => {
          socket.destroy();
        },
      });
    });
  });
}

export const netContender: Contender = { startServer, connect };
