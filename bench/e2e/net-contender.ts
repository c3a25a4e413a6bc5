// The ceiling: a raw node:net length-prefixed echo with request ids, written as an RPC stack
// writes: the client sends one write per call and the server answers every frame with its own
// write (no batching of many frames into one write). Each call crosses as UTF-8 JSON
// `{"trace":…,"value":…}`; the server echoes the frame's bytes as they came.
import { connect as netConnect } from "node:net";
import { startRawEchoServer } from "./raw-echo-server.js";
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
  return startRawEchoServer((onFrame) => createFrameReader((_id, _body, frame) => onFrame(frame)));
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
    const call = (trace: string, value: unknown): Promise<Buffer> =>
      new Promise((done) => {
        nextId = (nextId + 1) >>> 0;
        const id = nextId;
        const json = JSON.stringify({ trace, value });
        const length = Buffer.byteLength(json);
        const frame = Buffer.allocUnsafe(HEADER + length);
        frame.writeUInt32BE(length, 0);
        frame.writeUInt32BE(id, 4);
        frame.write(json, HEADER);
        pending.set(id, done);
        socket.write(frame);
      });
    const valueIn = (body: Buffer): unknown =>
      (JSON.parse(body.toString("utf8")) as { value: unknown }).value;
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      socket.on("error", () => socket.destroy());
      resolve({
        echoText: async (text, trace) => valueIn(await call(trace, text)) as string,
        echoUser: async (user, trace) => valueIn(await call(trace, user)) as BenchUser,
        close: async () => {
          socket.destroy();
        },
      });
    });
  });
}

export const netContender: Contender = { startServer, connect };
