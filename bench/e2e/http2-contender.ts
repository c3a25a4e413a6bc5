// The Triple bench's ceiling: a raw node:http2 echo shaped as a gRPC unary call and nothing more.
// The client opens one stream per call on one session (POST, gRPC's content-type, `te`, the
// `trace` as a header) and sends one 5-byte-prefixed UTF-8 JSON message `{"trace":…,"value":…}`;
// the server answers the bytes it read with headers, the same message and a `grpc-status: 0`
// trailer (waitForTrailers), as a gRPC server answers. No framework, no codec, no deadline.
// `http2-als` is the same echo with each call in an AsyncLocalStorage scope on both sides, as
// dubbo-ts's RpcContext runs a consumer call (runWithRpcContext) and a served one: on Node 20 the
// first scope turns async_hooks on for the whole process, so every promise, nextTick and
// node:http2 resource pays an init hook. The two measure that tax (docs/perf/triple-profile.md).
import type { AsyncLocalStorage } from "node:async_hooks";
import { createServer, type Http2Session, connect as http2Connect, type ServerHttp2Stream } from "node:http2";
import { listenOnFreePort } from "./raw-echo-server.js";
import type { BenchUser, Contender, EchoClient, EchoServer } from "./workloads.js";

const MESSAGE_PREFIX = 5;
const RESPONSE_HEADERS = { ":status": 200, "content-type": "application/grpc" };
const TRAILERS = { "grpc-status": "0" };

/** Where the scoped echo keeps each call's context; undefined for the plain echo. */
export type CallScope = AsyncLocalStorage<{ readonly trace: string | undefined }> | undefined;

function answer(stream: ServerHttp2Stream): void {
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  stream.on("error", () => stream.destroy());
  stream.on("end", () => {
    stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers(TRAILERS));
    stream.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  });
}

function startServer(scope: CallScope): Promise<EchoServer> {
  const sessions = new Set<Http2Session>();
  const server = createServer();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
    session.on("error", () => session.destroy());
  });
  server.on("stream", (stream, headers) => {
    if (scope === undefined) answer(stream);
    else scope.run({ trace: headers.trace as string | undefined }, answer, stream);
  });
  return listenOnFreePort(server, () => {
    for (const s of sessions) s.destroy();
  });
}

function connect(scope: CallScope, port: number): Promise<EchoClient> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(`http://127.0.0.1:${port}`);
    const send = (trace: string, value: unknown): Promise<unknown> =>
      new Promise((done, fail) => {
        const json = JSON.stringify({ trace, value });
        const length = Buffer.byteLength(json);
        const message = Buffer.allocUnsafe(MESSAGE_PREFIX + length);
        message[0] = 0;
        message.writeUInt32BE(length, 1);
        message.write(json, MESSAGE_PREFIX);
        const stream = session.request({
          ":method": "POST",
          ":path": "/org.apache.dubbo.bench.EchoService/echo",
          "content-type": "application/grpc",
          te: "trailers",
          trace,
        });
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", fail);
        stream.on("end", () => {
          const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          done((JSON.parse(body.toString("utf8", MESSAGE_PREFIX)) as { value: unknown }).value);
        });
        stream.end(message);
      });
    const call =
      scope === undefined
        ? send
        : (trace: string, value: unknown) => scope.run({ trace }, send, trace, value);
    session.once("error", reject);
    session.once("connect", () => {
      session.off("error", reject);
      session.on("error", () => session.destroy());
      resolve({
        echoText: async (text, trace) => (await call(trace, text)) as string,
        echoUser: async (user, trace) => (await call(trace, user)) as BenchUser,
        close: async () => {
          session.destroy();
        },
      });
    });
  });
}

export function http2Contender(scope: CallScope): Contender {
  return { startServer: () => startServer(scope), connect: (port) => connect(scope, port) };
}
