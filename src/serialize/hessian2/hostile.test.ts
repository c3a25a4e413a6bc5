// Corrupt and hostile input: always RpcError(DataLoss) or a value, never a crash, hang,
// prototype pollution or an allocation sized by an attacker's length field.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, java, RpcError } from "../../core/index.js";
import { decodeHessian, encodeHessian, Hessian2Reader } from "./index.js";

function dataLoss(bytes: Uint8Array, pattern?: RegExp, options?: Parameters<typeof decodeHessian>[2]): void {
  assert.throws(
    () => decodeHessian(bytes, undefined, options),
    (error: unknown) => {
      assert.ok(error instanceof RpcError, `expected RpcError, got ${String(error)}`);
      assert.equal(error.code, Code.DataLoss);
      if (pattern !== undefined) assert.match(error.message, pattern);
      return true;
    },
  );
}

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const User = java.Class("com.foo.User", { id: java.long, name: java.String, tags: java.List(java.String) });

function sample(): Buffer {
  const node: Record<string, unknown> = { n: 1 };
  node.self = node;
  const users = [{ id: 2n ** 60n, name: "ünï😀", tags: ["a", "b"] }];
  return encodeHessian([
    users,
    new Map<unknown, unknown>([
      [1, new Date(1e12)],
      ["k", Buffer.from([1, 2, 3])],
    ]),
    node,
    1.25,
    "x".repeat(40),
    new Error("boom"),
  ]).subarray(0) as Buffer;
}

describe("hessian2 hostile input", () => {
  it("hessian2 - every truncation of a valid body is DataLoss", () => {
    const bytes = Buffer.from(sample());
    for (let n = 0; n < bytes.length; n++) dataLoss(bytes.subarray(0, n));
    assert.ok(decodeHessian(bytes));
  });

  it("hessian2 - absurd lengths fail before anything is allocated", () => {
    dataLoss(Buffer.from([0x58, 0x49, 0x7f, 0xff, 0xff, 0xff]), /claims 2147483647 elements/);
    dataLoss(Buffer.from([0x56, 0x04, 0x5b, 0x69, 0x6e, 0x74, 0x49, 0x7f, 0xff, 0xff, 0xff]), /claims/);
    dataLoss(Buffer.from([0x53, 0xff, 0xff, 0x61]), /truncated/);
    dataLoss(Buffer.from([0x42, 0xff, 0xff, 0x61]), /truncated/);
    dataLoss(Buffer.from([0x43, 0x01, 0x41, 0x49, 0x7f, 0xff, 0xff, 0xff]), /claims/);
    dataLoss(Buffer.from([0x58, 0xc8, 0x40, 0x90]), /claims 64 elements/);
    dataLoss(Buffer.from([0x58, 0x49, 0xff, 0xff, 0xff, 0xff]), /negative/);
  });

  it("hessian2 - maxBytes caps strings, binaries and lists", () => {
    dataLoss(encodeHessian("x".repeat(100)), /maxBytes \(50\)/, { maxBytes: 50 });
    dataLoss(encodeHessian(Buffer.alloc(100)), /maxBytes/, { maxBytes: 50 });
    dataLoss(encodeHessian(new Array(100).fill(0)), /maxBytes 50/, { maxBytes: 50 });
    assert.equal(decodeHessian(encodeHessian("x".repeat(50)), undefined, { maxBytes: 50 }), "x".repeat(50));
  });

  it("hessian2 - deep nesting stops at maxDepth", () => {
    const deep = Buffer.alloc(100_000, 0x57);
    dataLoss(deep, /maxDepth \(512\)/);
    dataLoss(Buffer.alloc(40, 0x57), /maxDepth \(16\)/, { maxDepth: 16 });
    // Even a limit too high for the stack ends as DataLoss, not a crash.
    dataLoss(Buffer.alloc(1_000_000, 0x57), undefined, { maxDepth: 10_000_000 });
  });

  it("hessian2 - references and class definitions out of range", () => {
    dataLoss(Buffer.from([0x51, 0x90]), /reference #0 out of range/);
    dataLoss(Buffer.from([0x79, 0x51, 0x91]), /reference #1 out of range/);
    dataLoss(Buffer.from([0x60]), /class definition #0/);
    dataLoss(Buffer.from([0x4f, 0x95]), /class definition #5/);
    dataLoss(Buffer.from([0x71, 0x95, 0x90]), /type reference #5/);
    dataLoss(Buffer.from([0x5a]), /unexpected tag 0x5a/);
    dataLoss(Buffer.from([0x40]), /unexpected tag 0x40/);
    dataLoss(Buffer.from([0x02, 0xff, 0x41]), /bad UTF-8/);
    dataLoss(Buffer.from([0x52, 0x00, 0x01, 0x61, 0x91]), /string chunk/);
  });

  it("hessian2 - a reader reports where it stopped", () => {
    const r = new Hessian2Reader(Buffer.from([0x91, 0x92]), undefined, 1);
    assert.equal(r.readValue(), 2);
    assert.equal(r.offset, 2);
    assert.equal(r.remaining, 0);
    assert.throws(() => new Hessian2Reader(Buffer.from([1]), undefined, 5), RpcError);
  });

  it("hessian2 - fuzz: random and mutated bytes give a value or DataLoss (5,000 seeded cases)", () => {
    const random = rng(0x5eed);
    const valid = Buffer.from(sample());
    const typed = Buffer.from(encodeHessian([{ id: 1, name: "n", tags: ["t"] }], java.List(User)));
    for (let i = 0; i < 5000; i++) {
      let input: Buffer;
      if (i % 3 === 0) {
        input = Buffer.alloc(1 + Math.floor(random() * 64));
        for (let j = 0; j < input.length; j++) input[j] = Math.floor(random() * 256);
      } else {
        input = Buffer.from(i % 3 === 1 ? valid : typed);
        const flips = 1 + Math.floor(random() * 4);
        for (let f = 0; f < flips; f++)
          input[Math.floor(random() * input.length)] = Math.floor(random() * 256);
        if (random() < 0.3) input = input.subarray(0, Math.floor(random() * input.length));
      }
      const type = i % 5 === 0 ? java.List(User) : undefined;
      try {
        const reader = new Hessian2Reader(input);
        while (reader.remaining > 0) reader.readValue(type);
      } catch (error) {
        if (!(error instanceof RpcError) || error.code !== Code.DataLoss) {
          assert.fail(`case ${i} (${input.toString("hex")}) threw ${String(error)}`);
        }
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(Object.prototype), []);
  });
});
