import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Code, RpcError } from "../../core/index.js";
import {
  frameMessage,
  frameReservedMessage,
  MESSAGE_PREFIX_BYTES,
  MessageReader,
  messageBytes,
} from "./grpc-frame.js";
import { codeOfGrpcStatus, codeOfHttpStatus, decodeGrpcMessage, encodeGrpcMessage } from "./grpc-status.js";
import { formatGrpcTimeout, parseGrpcTimeout } from "./grpc-timeout.js";
import { attachmentsToHeaders, headersToAttachments, rawHeadersToAttachments } from "./triple-headers.js";

describe("grpc wire pieces", () => {
  test("grpc-timeout - every unit parses to ms, sub-ms rounds up", () => {
    assert.equal(parseGrpcTimeout("2H"), 7_200_000);
    assert.equal(parseGrpcTimeout("3M"), 180_000);
    assert.equal(parseGrpcTimeout("5S"), 5000);
    assert.equal(parseGrpcTimeout("250m"), 250);
    assert.equal(parseGrpcTimeout("1500000u"), 1500);
    assert.equal(parseGrpcTimeout("999u"), 1);
    assert.equal(parseGrpcTimeout("3000000n"), 3);
    // The last value is kept parsed: a repeat, then another value, then a bad one, each still right.
    assert.equal(parseGrpcTimeout("3000000n"), 3);
    assert.equal(parseGrpcTimeout("3000m"), 3000);
    assert.throws(() => parseGrpcTimeout("3000x"), /grpc-timeout "3000x"/);
    assert.equal(parseGrpcTimeout("3000m"), 3000);
    for (const bad of ["", "10", "m", "123456789m", "1.5S", "10s"]) {
      assert.throws(
        () => parseGrpcTimeout(bad),
        (e: unknown) => e instanceof RpcError && /grpc-timeout/.test(e.message),
      );
    }
  });

  test("grpc-timeout - ms are written in the finest unit under 10^8, as Java's GrpcUtils does", () => {
    assert.equal(formatGrpcTimeout(50), "50000000n");
    assert.equal(formatGrpcTimeout(1000), "1000000u");
    assert.equal(formatGrpcTimeout(3000), "3000000u");
    assert.equal(formatGrpcTimeout(200_000), "200000m");
    assert.equal(formatGrpcTimeout(3_600_000_000), "3600000S");
    assert.equal(formatGrpcTimeout(100_000_000_000), "1666666M");
    for (const ms of [1, 999, 1000, 86_400_000]) assert.equal(parseGrpcTimeout(formatGrpcTimeout(ms)), ms);
  });

  test("grpc-message - percent-encoding keeps printable ASCII and encodes % and UTF-8", () => {
    assert.equal(encodeGrpcMessage("plain text: ok"), "plain text: ok");
    assert.equal(encodeGrpcMessage("100% déjà\n"), "100%25 d%C3%A9j%C3%A0%0A");
    assert.equal(decodeGrpcMessage("100%25 d%C3%A9j%C3%A0%0A"), "100% déjà\n");
    assert.equal(decodeGrpcMessage("bad %zz stays"), "bad %zz stays");
  });

  test("grpc-status - gRPC's numbers are our codes; HTTP statuses map as gRPC's table says", () => {
    assert.equal(codeOfGrpcStatus(4), Code.DeadlineExceeded);
    assert.equal(codeOfGrpcStatus(99), Code.Unknown);
    assert.equal(codeOfHttpStatus(404), Code.Unimplemented);
    assert.equal(codeOfHttpStatus(503), Code.Unavailable);
    assert.equal(codeOfHttpStatus(500), Code.Unknown);
  });

  test("grpc framing - a payload written after room for the prefix is framed in place (identity) or like any other (gzip)", async () => {
    const reserved = () => Buffer.concat([Buffer.alloc(MESSAGE_PREFIX_BYTES, 0xff), Buffer.from("hello")]);
    const buffer = reserved();
    const framed = frameReservedMessage(buffer, "identity");
    assert.equal(framed, buffer, "no copy");
    assert.deepEqual(framed, frameMessage(Buffer.from("hello"), "identity"));
    const zipped = await frameReservedMessage(reserved(), "gzip");
    const reader = new MessageReader(100, "the test stream");
    reader.push(zipped);
    assert.equal(reader.messages.length, 1);
    assert.equal((await messageBytes(reader.messages[0]!, "gzip", 100, "m")).toString(), "hello");
  });

  test("grpc framing - messages split across chunks, gzip round trip, the payload limit before buffering", async () => {
    // Identity frames and uncompressed messages come back at once: the unary hot path waits on no promise for them.
    const first = frameMessage(Buffer.from("hello"), "identity");
    assert.ok(Buffer.isBuffer(first), "an identity frame is made synchronously");
    assert.equal(first.toString("hex"), `0000000005${Buffer.from("hello").toString("hex")}`);
    const zipped = await frameMessage(Buffer.from("x".repeat(1000)), "gzip");
    assert.equal(zipped[0], 1, "compressed flag");
    const reader = new MessageReader(2000, "the test stream");
    const all = Buffer.concat([first, zipped]);
    for (let i = 0; i < all.length; i += 3) reader.push(all.subarray(i, i + 3));
    reader.finish();
    assert.equal(reader.messages.length, 2);
    const plain = messageBytes(reader.messages[0]!, "gzip", 2000, "m");
    assert.ok(Buffer.isBuffer(plain), "an uncompressed message's bytes come back synchronously");
    assert.equal(plain.toString(), "hello");
    assert.equal((await messageBytes(reader.messages[1]!, "gzip", 2000, "m")).length, 1000);
    await assert.rejects(
      async () => messageBytes(reader.messages[1]!, "gzip", 100, "the message"),
      /larger once decompressed.*payload/,
    );

    const small = new MessageReader(10, "the request");
    assert.throws(
      () => small.push(Buffer.from([0, 0, 0, 0, 11])),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.ResourceExhausted &&
        /11 bytes.*limit of 10.*payload/.test(e.message),
    );
    const partial = new MessageReader(10, "the request");
    partial.push(Buffer.from([0, 0, 0, 0, 4, 1]));
    assert.throws(() => partial.finish(), /ended inside a message/);
  });

  test("headers - attachments as lower-case headers, bytes as -bin, the original case restored", () => {
    const headers: Record<string, string | number | string[] | undefined> = {};
    attachmentsToHeaders(
      { traceId: "t1", count: 3, raw: new Uint8Array([1, 2, 3]), skip: { a: 1 }, "grpc-status": "x" },
      headers,
    );
    assert.equal(headers.traceid, "t1");
    assert.equal(headers.count, "3");
    assert.equal(headers["raw-bin"], "AQID");
    assert.equal(headers.skip, undefined, "objects cannot travel as headers");
    assert.equal(headers["grpc-status"], undefined, "protocol headers are never attachments");
    const back = headersToAttachments({
      ...headers,
      ":path": "/a/b",
      "content-type": "application/grpc",
    } as never);
    assert.deepEqual(back, { traceId: "t1", count: "3", raw: new Uint8Array([1, 2, 3]) });
    const block = { ...headers, ":path": "/a/b", "content-type": "application/grpc" } as Record<
      string,
      string
    >;
    const raw = Object.entries(block).flat();
    assert.deepEqual(rawHeadersToAttachments(raw, block), back, "the raw list reads as the object does");
  });

  test("headers - a raw list naming an attachment twice is read from node's header object", () => {
    // node:http2 joins a repeated header into one value; `x` and `x-bin` both name the attachment `x`.
    const repeated = rawHeadersToAttachments(["x", "a", "x", "b", ":path", "/a/b"], {
      x: "a, b",
      ":path": "/a/b",
    });
    assert.deepEqual(repeated, { x: "a, b" });
    const object = { x: "plain", "x-bin": "AQ" };
    assert.deepEqual(
      rawHeadersToAttachments(["x", "plain", "x-bin", "AQ"], object),
      headersToAttachments(object),
    );
  });
});
