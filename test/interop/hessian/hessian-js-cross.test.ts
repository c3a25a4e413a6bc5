// Cross-check against the npm hessian.js 2.11 (the Node library Dubbo users have today): where it is
// right, its bytes decode in ours and ours decode in it to the same value; where it is wrong, we
// assert our behaviour and pin its behaviour, which docs/hessian.md documents.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { BizError } from "../../../src/core/error/biz-error.js";
import { type JavaType, java } from "../../../src/core/java/java-type.js";
import { decodeHessian, encodeHessian } from "../../../src/serialize/hessian2/index.js";
import { describeJs } from "./describe-js.js";
import { createHarnessRun, readFixtures } from "./java-harness.js";
import { ColorType, jobj, patternBytes, patternString, UserType, user } from "./values.js";

interface HessianJs {
  encode(value: unknown, version: "2.0"): Buffer;
  decode(bytes: Buffer, version: "2.0", withType?: boolean): unknown;
}
const hessianJs = createRequire(import.meta.url)("hessian.js") as HessianJs;

const harness = createHarnessRun();
let fixtures: Map<string, Buffer>;
before(async () => {
  fixtures = await readFixtures(harness);
});
after(() => harness.close());

function fixture(name: string): Buffer {
  const bytes = fixtures.get(name);
  assert.ok(bytes, `the Java harness wrote no fixture named ${name}`);
  return bytes;
}

interface AgreeCase {
  name: string;
  /** Our value and declared type. */
  ours: readonly [unknown, JavaType?];
  /** The same Java value in hessian.js's hand-wrapped form ({ $class, $ }). */
  theirs: unknown;
  /** What our decoder yields (defaults to ours[0]). */
  oursDecoded?: unknown;
  /** What hessian.js's decoder yields (defaults to ours[0]). */
  theirsDecoded?: unknown;
}

const long = (v: number) => ({ $class: "long", $: v });
const double = (v: number) => ({ $class: "double", $: v });

const AGREE: AgreeCase[] = [
  { name: "null", ours: [null], theirs: null },
  { name: "true", ours: [true, java.boolean], theirs: true },
  ...[-262145, -2048, -16, 0, 47, 2047, 262143, 2147483647].map((v) => ({
    name: `int ${v}`,
    ours: [v, java.int] as const,
    theirs: v,
  })),
  ...[-2049, 15, 262144, 2147483648, 9007199254740991].map((v) => ({
    name: `long ${v}`,
    ours: [v, java.long] as const,
    theirs: long(v),
  })),
  ...[12.25, 2.675, 0.001, -1.5, 1e300, 2147483.647, 0.1].map((v) => ({
    name: `double ${v}`,
    ours: [v, java.double] as const,
    theirs: double(v),
  })),
  { name: "empty string", ours: ["", java.String], theirs: "" },
  { name: "BMP string", ours: ["h\u00e9llo \u4e2d", java.String], theirs: "h\u00e9llo \u4e2d" },
  { name: "emoji string", ours: ["\u{1F600} x", java.String], theirs: "\u{1F600} x" },
  { name: "chunked string", ours: [patternString(70001), java.String], theirs: patternString(70001) },
  {
    name: "chunked non-BMP string",
    ours: ["a\u00e9\u4e2d\u{1F600}".repeat(14000), java.String],
    theirs: "a\u00e9\u4e2d\u{1F600}".repeat(14000),
  },
  {
    name: "chunked binary",
    ours: [patternBytes(70000), java.bytes],
    theirs: Buffer.from(patternBytes(70000)),
  },
  { name: "Date (minute form)", ours: [new Date(1700000040000), java.Date], theirs: new Date(1700000040000) },
  { name: "Date (millis form)", ours: [new Date(1700000000123), java.Date], theirs: new Date(1700000000123) },
  { name: "List<String>", ours: [["a", "b"], java.List(java.String)], theirs: ["a", "b"] },
  { name: "int[]", ours: [[1, 2], java.array(java.int)], theirs: { $class: "[int", $: [1, 2] } },
  {
    name: "Map<String,Integer>",
    ours: [new Map([["a", 1]]), java.Map(java.String, java.Integer)],
    theirs: { a: 1 },
    theirsDecoded: { a: 1 },
  },
  {
    name: "User",
    ours: [user(1, "ann", ["x"]), UserType],
    theirs: {
      $class: "com.foo.User",
      $: { id: long(1), name: "ann", tags: { $class: "java.util.List", $: ["x"] } },
    },
    theirsDecoded: { id: 1, name: "ann", tags: ["x"] },
  },
];

describe("hessian hessian.js - where hessian.js is right, the two interoperate", () => {
  for (const c of AGREE) {
    it(`hessian hessian.js - ${c.name} crosses both ways`, () => {
      const [value, type] = c.ours;
      const theirsDecoded = c.theirsDecoded ?? value;
      const ourBytes = encodeHessian(value, type);
      const decodedByThem = hessianJs.decode(ourBytes, "2.0");
      if (theirsDecoded instanceof Uint8Array) {
        assert.ok(decodedByThem instanceof Uint8Array);
        assert.ok(Buffer.from(theirsDecoded).equals(decodedByThem), "hessian.js reads our bytes");
      } else {
        assert.deepStrictEqual(decodedByThem, theirsDecoded, "hessian.js reads our bytes");
      }
      const theirBytes = hessianJs.encode(c.theirs, "2.0");
      assert.equal(
        describeJs(decodeHessian(theirBytes, type)),
        describeJs(c.oursDecoded ?? value),
        `we read hessian.js's bytes ${theirBytes.subarray(0, 24).toString("hex")}`,
      );
    });
  }
});

describe("hessian hessian.js - where hessian.js is wrong (documented in docs/hessian.md)", () => {
  it("hessian hessian.js - a long beyond 2^53: we give a bigint, hessian.js a string", () => {
    const bytes = fixture("long.9007199254740993");
    assert.equal(decodeHessian(bytes), 9007199254740993n);
    assert.equal(hessianJs.decode(bytes, "2.0"), "9007199254740993");
  });

  it("hessian hessian.js - writing a long beyond 2^53: we take a bigint, hessian.js cannot", () => {
    assert.equal(encodeHessian(9007199254740993n, java.long).toString("hex"), "4c0020000000000001");
    assert.throws(() => hessianJs.encode({ $class: "long", $: 9007199254740993n }, "2.0"));
    // The only way into hessian.js is a JS number, which already lost the value.
    assert.equal(
      hessianJs.encode(long(Number("9007199254740993")), "2.0").toString("hex"),
      "4c0020000000000000",
    );
  });

  it("hessian hessian.js - BigDecimal: we give the decimal string, hessian.js the raw { value } object", () => {
    const bytes = fixture("bigdecimal.100.06");
    assert.equal(decodeHessian(bytes), "100.06");
    assert.deepStrictEqual(hessianJs.decode(bytes, "2.0"), { value: "100.06" });
  });

  it("hessian hessian.js - BigInteger: we give a bigint, hessian.js the JDK's private fields", () => {
    const bytes = fixture("biginteger.big");
    assert.equal(decodeHessian(bytes), 12345678901234567890n);
    const theirs = hessianJs.decode(bytes, "2.0") as Record<string, unknown>;
    assert.equal(theirs.signum, 1);
    assert.ok(Array.isArray(theirs.mag));
  });

  it("hessian hessian.js - int map keys: we keep numbers in a Map, hessian.js makes string keys", () => {
    const bytes = fixture("map.hashmap.int-keys");
    const ours = decodeHessian(bytes);
    assert.ok(ours instanceof Map);
    assert.equal(ours.get(1), "one");
    assert.deepStrictEqual(hessianJs.decode(bytes, "2.0"), { "1": "one", "2": "two", "-300": "minus" });
  });

  it("hessian hessian.js - class names: we keep $class, hessian.js drops it unless asked for wrapped output", () => {
    const bytes = fixture("user.simple");
    assert.equal((decodeHessian(bytes) as { $class?: string }).$class, "com.foo.User");
    const theirs = hessianJs.decode(bytes, "2.0") as Record<string, unknown>;
    assert.equal(theirs.$class, undefined);
    assert.deepStrictEqual(theirs, { id: 1, name: "ann", tags: ["admin", "dev"] });
  });

  it("hessian hessian.js - an untyped JS object: we follow the contract type, hessian.js writes a HashMap", () => {
    const plain = { id: 1, name: "ann", tags: ["x"] };
    assert.equal(
      describeJs(decodeHessian(encodeHessian(plain, UserType))),
      describeJs(user(1, "ann", ["x"])),
    );
    assert.equal(hessianJs.encode(plain, "2.0")[0], 0x48, "hessian.js writes an untyped map");
  });

  it("hessian hessian.js - enums: we give the constant name, hessian.js a { name } object", () => {
    const bytes = fixture("enum.red");
    assert.equal(decodeHessian(bytes, ColorType), "RED");
    assert.deepStrictEqual(hessianJs.decode(bytes, "2.0"), { name: "RED" });
  });

  it("hessian hessian.js - java.time: we give a Date, hessian.js hessian-lite's handle fields", () => {
    const bytes = fixture("time.localdate");
    assert.equal(
      describeJs(decodeHessian(bytes, java.LocalDate)),
      describeJs(new Date(Date.UTC(2024, 1, 29))),
    );
    assert.deepStrictEqual(hessianJs.decode(bytes, "2.0"), { year: 2024, month: 2, day: 29 });
  });

  it("hessian hessian.js - HashSet: we give a Set for a Set type, hessian.js an array", () => {
    const bytes = fixture("set.hashset");
    assert.equal(describeJs(decodeHessian(bytes, java.Set(java.Integer))), describeJs(new Set([1, 2, 3])));
    assert.deepStrictEqual(hessianJs.decode(bytes, "2.0"), [1, 2, 3]);
  });

  it("hessian hessian.js - exceptions: we keep fields and Java stack, hessian.js only name and message", () => {
    const bytes = fixture("exception.custom-field");
    const ours = decodeHessian(bytes);
    assert.ok(ours instanceof BizError);
    assert.equal(ours.javaClass, "com.foo.BizException");
    assert.equal(ours.fields.errorCode, 42);
    assert.ok(ours.javaStack.length > 0);
    const theirs = hessianJs.decode(bytes, "2.0") as Error & Record<string, unknown>;
    assert.equal(theirs.name, "com.foo.BizException");
    assert.equal(theirs.message, "insufficient funds");
    assert.equal(theirs.errorCode, undefined);
  });

  it("hessian hessian.js - writing an Error: we write a Throwable, hessian.js an empty map", () => {
    const ours = decodeHessian(encodeHessian(new Error("boom")));
    assert.ok(ours instanceof BizError);
    assert.equal(ours.message, "boom");
    assert.equal(hessianJs.encode(new Error("boom"), "2.0").toString("hex"), "485a");
  });

  it("hessian hessian.js - a double that is a whole number needs wrapping in hessian.js", () => {
    // The contract type is enough for us; hessian.js writes a bare 1 as an int.
    assert.equal(encodeHessian(1, java.double).toString("hex"), "5c");
    assert.equal(hessianJs.encode(1, "2.0").toString("hex"), "91");
    assert.equal(describeJs(decodeHessian(encodeHessian(-0, java.double))), describeJs(-0));
  });

  it("hessian hessian.js - a shared object decodes once in both", () => {
    const bytes = fixture("list.users.shared");
    const ours = decodeHessian(bytes) as unknown[];
    assert.equal(ours[0], ours[2]);
    assert.equal(
      describeJs(ours[0]),
      describeJs(jobj("com.foo.User", { id: 1, name: "ann", tags: ["admin", "dev"] })),
    );
    const theirs = hessianJs.decode(bytes, "2.0") as unknown[];
    assert.equal(theirs[0], theirs[2]);
  });
});
