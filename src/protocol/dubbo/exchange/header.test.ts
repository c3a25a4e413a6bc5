import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HEADER_LENGTH } from "../framing/index.js";
import { encodeHeader, fillFrameHeader, readCallId, readId, readRequestId } from "./header.js";

describe("frame header", () => {
  it("header - a call id written as a number is the same 64 bits as the bigint and reads back exact", () => {
    for (const id of [0, 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER]) {
      const asNumber = fillFrameHeader(Buffer.alloc(HEADER_LENGTH + 3), 0xc2, 0, id);
      assert.deepEqual(asNumber, fillFrameHeader(Buffer.alloc(HEADER_LENGTH + 3), 0xc2, 0, BigInt(id)));
      assert.equal(readId(asNumber), BigInt(id));
      assert.equal(readCallId(asNumber), id);
      assert.equal(readCallId(encodeHeader(0, 20, id, 0)), id);
    }
  });

  it("header - a peer's id outside the call ids never reads as one of them", () => {
    for (const id of [-1n, -(2n ** 32n), -(2n ** 63n), 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n]) {
      const read = readCallId(encodeHeader(0, 20, id, 0));
      assert.ok(read < 0 || read > Number.MAX_SAFE_INTEGER, `${id} read as ${read}`);
    }
  });

  it("header - a peer's request id, read as a number when exact, writes back the same 64 bits as its bigint", () => {
    const exact = [0n, 1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n];
    const inexact = [2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n, -1n, -(2n ** 32n), -(2n ** 63n)];
    for (const id of [...exact, ...inexact]) {
      const request = encodeHeader(0xc2, 0, id, 0);
      const read = readRequestId(request);
      assert.equal(typeof read, id >= 0n && id < 2n ** 53n ? "number" : "bigint", `${id}`);
      assert.equal(BigInt(read), id);
      assert.deepEqual(encodeHeader(2, 20, read, 5), encodeHeader(2, 20, id, 5));
    }
  });
});
