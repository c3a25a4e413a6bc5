// Round trips of arbitrary values (fast-check, fixed seed): decode(encode(v)) gives v back in
// its decoded shape, alone and as many values sharing one body.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { java } from "../../core/index.js";
import { decodeHessian, encodeHessian, Hessian2Reader, Hessian2Writer, javaObject } from "./index.js";

const SEED = 20240229;
const TWO_53 = 2n ** 53n;

/** Any UTF-16 unit, lone surrogates included (Java strings may hold them). */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.string({ unit: anyUnit, maxLength: 40 }),
);

/** Values already in the shape the decoder returns for them. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true }),
    fc
      .bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
      .map((b) => (b >= -TWO_53 && b <= TWO_53 ? Number(b) : b)),
    text,
    fc.date({ noInvalidDate: true }),
    fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
  ),
  node: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("list"), tie("map")),
  list: fc.array(tie("node"), { maxLength: 10 }),
  map: fc
    .array(fc.tuple(fc.oneof(fc.string(), fc.integer()), tie("node")), { maxLength: 8 })
    .map((entries) => new Map<unknown, unknown>(entries)),
})).node;

const User = java.Class("com.foo.User", {
  id: java.longBig,
  name: java.String,
  score: java.double,
  tags: java.List(java.String),
  born: java.Date,
});
const user = fc
  .record({
    id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    name: fc.option(text, { nil: null }),
    score: fc.double({ noNaN: true }),
    tags: fc.array(text, { maxLength: 4 }),
    born: fc.option(fc.date({ noInvalidDate: true }), { nil: null }),
  })
  .map((u) => javaObject("com.foo.User", u));

describe("hessian2 properties", () => {
  it("hessian2 - any value survives a round trip", () => {
    fc.assert(
      fc.property(value, (v) => {
        assert.deepStrictEqual(decodeHessian(encodeHessian(v)), v);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it("hessian2 - typed user objects survive a round trip, many per body", () => {
    fc.assert(
      fc.property(fc.array(user, { maxLength: 6 }), (users) => {
        const w = new Hessian2Writer();
        for (const u of users) w.writeValue(u, User);
        w.writeValue(users, java.List(User));
        const r = new Hessian2Reader(w.toBuffer());
        for (const u of users) assert.deepStrictEqual(r.readValue(User), u);
        assert.deepStrictEqual(r.readValue(java.List(User)), users);
        assert.equal(r.remaining, 0);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("hessian2 - longs keep every bit as java.longBig", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (b) => {
        assert.equal(decodeHessian(encodeHessian(b), java.longBig), b);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
