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
    assert.deepEqual(out[0]?.joined(), whole);
  });

  test("zookeeper frames - a frame keeps the socket's chunks it came in, not a copy of them", () => {
    const frames = new ZkFrames();
    const chunks = [Buffer.from(frame("a reply over")), Buffer.from(" three chunks")];
    chunks[0]?.writeInt32BE(chunks[0].length - 4 + chunks[1]!.length + 2);
    assert.deepEqual(frames.push(chunks[0]!), []);
    assert.deepEqual(frames.push(chunks[1]!), []);
    const last = Buffer.from("!!");
    const [out, next] = frames.push(Buffer.concat([last, frame("next")]));
    assert.equal(next?.toString(4, next.length), "next");
    assert.equal(out?.toString(4, out.length), "a reply over three chunks!!");
    chunks[1]?.write("T", 1);
    assert.equal(out?.toString(4, out.length), "a reply over Three chunks!!");
    assert.throws(() => frames.push(Buffer.from([0xff, 0xff, 0xff, 0xfe])), /negative size \(-2\)/);
  });

  test("zookeeper frames - several frames in one chunk come out one by one, a partial tail waits", () => {
    const frames = new ZkFrames();
    const [a, b, c] = [frame("first"), frame("second"), frame("third")];
    const chunk = Buffer.concat([a, b, c.subarray(0, 3)]);
    assert.deepEqual(
      frames.push(chunk).map((f) => f.joined()),
      [a, b],
    );
    assert.deepEqual(
      frames.push(c.subarray(3)).map((f) => f.joined()),
      [c],
    );
  });

  test("zookeeper frames - clear() drops what a dead socket left half-received", () => {
    const frames = new ZkFrames();
    frames.push(frame("cut off").subarray(0, 6));
    frames.clear();
    const next = frame("next socket");
    assert.deepEqual(
      frames.push(next).map((f) => f.joined()),
      [next],
    );
  });
});
