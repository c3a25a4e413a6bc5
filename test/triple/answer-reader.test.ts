// How our Triple consumer reads a unary answer off the stream's events (one promise per call, no
// async iteration): a message split over several DATA frames is put back together, and an answer
// with two messages or one cut short fails naming what came, and one in a serialization the
// reference does not permit fails as Java 3.3's client fails it. The provider is a bare node:http2
// server, so each answer is exactly the bytes the test writes.
import assert from "node:assert/strict";
import { createServer, type Http2Server, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { Code, defineService, java, RpcError } from "../../src/index.js";
import { encodeResponseWrapper } from "../../src/protocol/triple/wrapper-codec.js";
import { encodeHessian } from "../../src/serialize/index.js";
import { triApps } from "./tri-apps.js";

const Answers = defineService("org.apache.dubbo.demo.AnswerService", {
  split: { args: [], returns: java.String },
  twice: { args: [], returns: java.String },
  cut: { args: [], returns: java.String },
  kryo: { args: [], returns: java.String },
});

function message(text: string, serializeType = "hessian4"): Buffer {
  const payload = encodeResponseWrapper({
    serializeType,
    data: encodeHessian(text, java.String),
    type: "java.lang.String",
  });
  const out = Buffer.alloc(5 + payload.length);
  out.writeUInt32BE(payload.length, 1);
  out.set(payload, 5);
  return out;
}

/** Answers with headers, `chunks` written one by one (each its own DATA frame), then status 0. */
function answer(stream: ServerHttp2Stream, chunks: readonly Buffer[]): void {
  stream.respond({ ":status": 200, "content-type": "application/grpc+proto" }, { waitForTrailers: true });
  stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
}

const apps = triApps();
let server: Http2Server;
let url: string;

before(async () => {
  server = createServer();
  server.on("stream", (stream, headers) => {
    stream.resume();
    stream.on("end", () => {
      const hello = message("hello");
      const method = String(headers[":path"]).split("/").pop();
      if (method === "split") answer(stream, [hello.subarray(0, 3), hello.subarray(3, 9), hello.subarray(9)]);
      else if (method === "twice") answer(stream, [hello, message("again")]);
      else if (method === "kryo") answer(stream, [message("hello", "kryo")]);
      else answer(stream, [hello.subarray(0, hello.length - 2)]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `tri://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await apps.stopAll();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the consumer's reader of a unary answer", () => {
  test("answer reader - a message split over three DATA frames, two messages, a message cut short", async () => {
    const app = await apps.consumer("answer-reader");
    const stub = await app.refer(Answers, { url, retries: 0 });
    assert.equal(await stub.split(), "hello");
    await assert.rejects(
      stub.twice(),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.Internal &&
        /carried 2 messages; exactly one/.test(e.message),
    );
    await assert.rejects(
      stub.cut(),
      (e: unknown) =>
        e instanceof RpcError && e.code === Code.Internal && /ended inside a message/.test(e.message),
    );
  });

  test("answer reader - a response wrapper in a serialization the reference does not permit fails as in Java 3.3", async () => {
    const app = await apps.consumer("answer-serialization");
    const stub = await app.refer(Answers, { url, retries: 0 });
    await assert.rejects(stub.kryo(), (e: unknown) => {
      assert.ok(e instanceof RpcError, String(e));
      assert.equal(e.code, Code.Internal, "INTERNAL, as Java's client fails an answer it cannot read");
      assert.match(
        e.message,
        /Unexpected serialization type:kryo received from network, please check if the peer send the right id\. .*kryo.* the response is serialized as "kryo", not one of the permitted hessian2/,
      );
      return true;
    });
  });
});
