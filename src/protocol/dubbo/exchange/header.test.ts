import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HEADER_LENGTH } from "../framing/index.js";
import { encodeHeader, fillFrameHeader, readCallId, readId } from "./header.js";

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
});
