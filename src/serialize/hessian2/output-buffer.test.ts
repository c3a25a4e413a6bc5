// A body is a view of the writer's slab, so whoever keeps a large body keeps its whole slab: the
// slab grown for one large value must stay near the body's size.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { java } from "../../core/index.js";
import { decodeHessian, encodeHessian } from "./index.js";

describe("OutputBuffer", () => {
  it("grows for a 1 MiB binary to a slab at most twice the body, with the bytes intact", () => {
    const binary = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 31 + (i >> 8)) & 255;
    const body = encodeHessian(binary, java.bytes);
    assert.ok(
      body.buffer.byteLength <= 2 * body.length,
      `a ${body.length}-byte body holds a ${body.buffer.byteLength}-byte slab`,
    );
    assert.deepEqual(decodeHessian(body, java.bytes), binary);
  });
});
