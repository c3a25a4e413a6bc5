import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ZkFrames } from "./zk-frames.js";

function frame(body: string): Buffer {
  const bytes = Buffer.from(body);
  const size = Buffer.alloc(4);
  size.writeInt32BE(bytes.length);
  return Buffer.concat([size, bytes]);
}

describe("zookeeper frames", () => {
  test("zookeeper frames - a frame split across chunks, and its size prefix split too, comes out whole once", () => {
    const frames = new ZkFrames();
    const whole = frame("a reply of some length");
    assert.deepEqual(frames.push(whole.subarray(0, 2)), []);
    assert.deepEqual(frames.push(whole.subarray(2, 9)), []);
    const out = frames.push(whole.subarray(9));
    assert.equal(out.length, 1);
    assert.deepEqual(out[0], whole);
  });

  test("zookeeper frames - several frames in one chunk come out one by one, a partial tail waits", () => {
    const frames = new ZkFrames();
    const [a, b, c] = [frame("first"), frame("second"), frame("third")];
    const chunk = Buffer.concat([a, b, c.subarray(0, 3)]);
    assert.deepEqual(frames.push(chunk), [a, b]);
    assert.deepEqual(frames.push(c.subarray(3)), [c]);
  });

  test("zookeeper frames - clear() drops what a dead socket left half-received", () => {
    const frames = new ZkFrames();
    frames.push(frame("cut off").subarray(0, 6));
    frames.clear();
    const next = frame("next socket");
    assert.deepEqual(frames.push(next), [next]);
  });
});
