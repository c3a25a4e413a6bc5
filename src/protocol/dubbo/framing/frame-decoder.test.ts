import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createFrameDecoder } from "./frame-decoder.js";

function frame(id: number, body: string): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt16BE(0xdabb, 0);
  header[2] = 0xc2;
  header.writeBigInt64BE(BigInt(id), 4);
  const bytes = Buffer.from(body);
  header.writeInt32BE(bytes.length, 12);
  return Buffer.concat([header, bytes]);
}

interface Seen {
  frames: string[];
  oversize: Array<[bigint, number]>;
  garbage: string[];
}

function decoderWith(limit: number): { push: (b: Buffer) => void; seen: Seen } {
  const seen: Seen = { frames: [], oversize: [], garbage: [] };
  const decoder = createFrameDecoder(limit, {
    frame: (f) => seen.frames.push(`${f.readBigInt64BE(4)}:${f.subarray(16).toString()}`),
    oversize: (h, n) => seen.oversize.push([h.readBigInt64BE(4), n]),
    garbage: (b) => seen.garbage.push(b.toString("latin1")),
  });
  return { push: (b) => decoder.push(b), seen };
}

const stream = Buffer.concat([frame(1, "hello"), frame(2, ""), frame(-3, "a longer body, a longer body")]);
const expected = ["1:hello", "2:", "-3:a longer body, a longer body"];

describe("frame decoder", () => {
  it("frame decoder - one chunk holding many frames yields each frame", () => {
    const d = decoderWith(1024);
    d.push(stream);
    assert.deepEqual(d.seen.frames, expected);
  });

  it("frame decoder - a split at every byte offset yields the same frames", () => {
    for (let i = 0; i <= stream.length; i++) {
      const d = decoderWith(1024);
      d.push(stream.subarray(0, i));
      d.push(stream.subarray(i));
      assert.deepEqual(d.seen.frames, expected, `split at ${i}`);
    }
  });

  it("frame decoder - three chunks at every pair of offsets yield the same frames", () => {
    for (let i = 0; i <= stream.length; i++) {
      for (let j = i; j <= stream.length; j++) {
        const d = decoderWith(1024);
        d.push(stream.subarray(0, i));
        d.push(stream.subarray(i, j));
        d.push(stream.subarray(j));
        assert.deepEqual(d.seen.frames, expected, `split at ${i}, ${j}`);
      }
    }
  });

  it("frame decoder - byte by byte yields the same frames", () => {
    const d = decoderWith(1024);
    for (let i = 0; i < stream.length; i++) d.push(stream.subarray(i, i + 1));
    assert.deepEqual(d.seen.frames, expected);
  });

  it("frame decoder - an oversize frame is reported and skipped at every split, the next one still decodes", () => {
    const big = Buffer.concat([frame(7, "x".repeat(40)), frame(8, "small")]);
    for (let i = 0; i <= big.length; i++) {
      const d = decoderWith(10);
      d.push(big.subarray(0, i));
      d.push(big.subarray(i));
      assert.deepEqual(d.seen.oversize, [[7n, 40]], `split at ${i}`);
      assert.deepEqual(d.seen.frames, ["8:small"], `split at ${i}`);
    }
  });

  it("frame decoder - bytes without the magic are reported once and decoding stops", () => {
    const d = decoderWith(1024);
    d.push(Buffer.from("ls\r\n"));
    d.push(frame(1, "after"));
    assert.deepEqual(d.seen.garbage, ["ls\r\n"]);
    assert.deepEqual(d.seen.frames, []);
  });

  it("frame decoder - garbage after a good frame is caught even one byte at a time", () => {
    const d = decoderWith(1024);
    const input = Buffer.concat([frame(1, "ok"), Buffer.from([0xda, 0x00, 0x01])]);
    for (let i = 0; i < input.length; i++) d.push(input.subarray(i, i + 1));
    assert.deepEqual(d.seen.frames, ["1:ok"]);
    assert.equal(d.seen.garbage.length, 1);
  });

  it("frame decoder - a negative body length is garbage, not a crash", () => {
    const bad = frame(1, "");
    bad.writeInt32BE(-5, 12);
    const d = decoderWith(1024);
    d.push(bad);
    assert.equal(d.seen.garbage.length, 1);
  });
});
