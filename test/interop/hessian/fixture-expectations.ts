// What each Java-written fixture (java/dubbots/interop/Fixtures.java) must decode to in TypeScript.
// `lead` pins the first byte Java wrote, proving the fixture really exercises that compact form.
import { BizError } from "../../../src/core/error/biz-error.js";
import { type JavaType, java } from "../../../src/core/java/java-type.js";
import {
  ColorType,
  jobj,
  NodeType,
  PrimitivesType,
  patternBytes,
  patternString,
  TeamType,
  UserType,
  user,
} from "./values.js";

export interface FixtureExpectation {
  /** The decoded value(s): one per value in the frame. */
  readonly values: readonly unknown[];
  /** The declared type the decoder is given, as a service contract would give it. */
  readonly type?: JavaType;
  /** Expected first byte of the frame (the compact form under test). */
  readonly lead?: number;
}

const one = (value: unknown, extra: Omit<FixtureExpectation, "values"> = {}): FixtureExpectation => ({
  values: [value],
  ...extra,
});

const table: Record<string, FixtureExpectation> = {
  null: one(null, { lead: 0x4e }),
  "boolean.true": one(true, { lead: 0x54 }),
  "boolean.false": one(false, { lead: 0x46 }),
  "short.-300": one(-300),
  "byte.-7": one(-7),
  "float.1.5": one(1.5, { lead: 0x5f }),
  // hessian-lite widens a float through its decimal text (0.1f travels as 0.1, in the compact form).
  "float.0.1": one(0.1, { lead: 0x5f }),
  "char.A": one("A"),

  "string.empty": one("", { lead: 0x00 }),
  "string.a": one("a"),
  "string.mixed": one("h\u00e9llo w\u00f6rld \u2603 \u4e2d\u6587"),
  "string.emoji": one("\u{1F600} x \u{1F389}"),
  "string.emoji-at-chunk-boundary": one(`${patternString(32767)}\u{1F600}tail`, { lead: 0x52 }),
  "string.mixed.70000": one("a\u00e9\u4e2d\u{1F600}".repeat(14000), { lead: 0x52 }),

  "date.millis": one(new Date(1700000000123), { lead: 0x4a }),
  "date.minute": one(new Date(1700000040000), { lead: 0x4b }),
  "date.epoch": one(new Date(0), { lead: 0x4b }),
  "date.negative": one(new Date(-86400000), { lead: 0x4b }),
  "date.year-9999": one(new Date(253402300799999), { lead: 0x4a }),

  "list.arraylist.empty": one([], { lead: 0x78 }),
  "list.arraylist.mixed": one([1, "a", null, true, 2.5, 9007199254740993n]),
  "list.arraylist.7": one([1, 2, 3, 4, 5, 6, 7], { lead: 0x7f }),
  "list.arraylist.8": one([1, 2, 3, 4, 5, 6, 7, 8], { lead: 0x58 }),
  "list.linkedlist": one(["x", "y"], { lead: 0x72 }),
  "list.nested": one([[1, 2], [3]]),
  "list.self": one(
    (() => {
      const self: unknown[] = ["me"];
      self.push(self);
      return self;
    })(),
  ),

  "array.int": one([1, -2, 300000], { type: java.array(java.int) }),
  "array.int.empty": one([], { type: java.array(java.int), lead: 0x70 }),
  "array.long": one([1n, 9007199254740993n], { type: java.array(java.longBig) }),
  "array.double": one([0.5, -2], { type: java.array(java.double) }),
  "array.boolean": one([true, false], { type: java.array(java.boolean) }),
  "array.String": one(["a", null, "b"], { type: java.array(java.String) }),
  "array.Object": one([1, "a", null], { type: java.array(java.Object) }),
  "array.User": one([user(1, "ann", ["a"]), user(2, "bob", [])], { type: java.array(UserType) }),

  "map.hashmap.string-keys": one(
    new Map([
      ["a", 1],
      ["b", 2],
    ]),
    { lead: 0x48 },
  ),
  "map.hashmap.int-keys": one(
    new Map<number, string>([
      [1, "one"],
      [2, "two"],
      [-300, "minus"],
    ]),
  ),
  "map.hashmap.long-keys": one(
    new Map<number | bigint, string>([
      [7, "small"],
      [9007199254740993n, "big"],
    ]),
  ),
  "map.hashmap.empty": one(new Map()),
  "map.treemap": one(
    new Map([
      ["a", 1],
      ["b", 2],
    ]),
    { lead: 0x4d },
  ),
  "map.linkedhashmap": one(
    new Map([
      ["z", 26],
      ["y", 25],
    ]),
  ),
  "map.nested": one(new Map([["odd", [1, 3]]])),

  "set.hashset": one(new Set([1, 2, 3]), { type: java.Set(java.Integer) }),

  "user.simple": one(user(1, "ann", ["admin", "dev"]), { lead: 0x43 }),
  "user.nulls": one(user(0, null, null)),
  "user.big-id": one(user(9007199254740993n, "big", [])),
  "body.two-users": { values: [user(1, "ann", ["admin", "dev"]), user(2, "bob", ["ops"])] },
  "body.same-user-twice": (() => {
    const ann = user(1, "ann", ["admin", "dev"]);
    return { values: [ann, ann] };
  })(),
  "list.users.shared": (() => {
    const ann = user(1, "ann", ["admin", "dev"]);
    return one([ann, user(2, "bob", []), ann], { type: java.List(UserType) });
  })(),
  "team.shared-lead": (() => {
    const ann = user(1, "ann", ["admin", "dev"]);
    return one(jobj("com.foo.Team", { name: "core", lead: ann, members: [ann, user(2, "bob", [])] }), {
      type: TeamType,
    });
  })(),
  "node.cycle": (() => {
    const a: Record<string, unknown> = jobj("com.foo.Node", { name: "a", next: null as unknown });
    a.next = jobj("com.foo.Node", { name: "b", next: a });
    return one(a, { type: NodeType });
  })(),
  "node.self": (() => {
    const loop: Record<string, unknown> = jobj("com.foo.Node", { name: "loop", next: null as unknown });
    loop.next = loop;
    return one(loop);
  })(),

  "enum.red": one("RED", { type: ColorType }),
  "list.enums": one(["RED", "GREEN", "RED"], { type: java.List(ColorType) }),

  "bigdecimal.100.06": one("100.06"),
  "bigdecimal.negative": one("-12345678901234567890.123456789"),
  "bigdecimal.zero-scale-3": one("0.000"),
  "bigdecimal.1E+3": one("1E+3"),
  "list.bigdecimal.shared": one(["9.99", "9.99"]),
  "biginteger.0": one(0n),
  "biginteger.1": one(1n),
  "biginteger.big": one(12345678901234567890n),
  "biginteger.negative": one(-98765432109876543210987654321n),

  primitives: one(
    jobj("com.foo.Primitives", {
      z: true,
      b: -7,
      s: -300,
      i: 70000,
      j: 9007199254740993n,
      f: 1.5,
      d: 2.675,
      c: "x",
      boxed: null,
      str: "s",
      when: new Date(1700000000123),
      money: "100.06",
      ints: [1, 2],
      counts: new Map([["k", 3]]),
      color: "BLUE",
    }),
    { type: PrimitivesType },
  ),

  "time.localdate": one(new Date(Date.UTC(2024, 1, 29)), { type: java.LocalDate }),
  "time.localtime": one("13:45:30.123", { type: java.LocalTime }),
  "time.localdatetime": one(new Date(Date.UTC(2024, 1, 29, 13, 45, 30, 123)), { type: java.LocalDateTime }),
  "time.instant": one(new Date(1700000000123), { type: java.Instant }),
  "time.duration": one("PT1H2M3.5S", { type: java.Duration }),

  "exception.iae-with-cause": one(
    new BizError("bad argument", {
      javaClass: "java.lang.IllegalArgumentException",
      cause: new BizError("root cause", { javaClass: "java.lang.IllegalStateException" }),
    }),
  ),
  "exception.runtime-no-message": one(new BizError("", { javaClass: "java.lang.RuntimeException" })),
  "exception.custom-field": one(
    new BizError("insufficient funds", { javaClass: "com.foo.BizException", fields: { errorCode: 42 } }),
  ),
};

// Compact-form boundaries: [value, first byte Java writes].
const INTS: [number, number][] = [
  [0, 0x90],
  [1, 0x91],
  [-1, 0x8f],
  [-16, 0x80],
  [47, 0xbf],
  [-17, 0xc7],
  [48, 0xc8],
  [-2048, 0xc0],
  [2047, 0xcf],
  [-2049, 0xd3],
  [2048, 0xd4],
  [-262144, 0xd0],
  [262143, 0xd7],
  [-262145, 0x49],
  [262144, 0x49],
  [-2147483648, 0x49],
  [2147483647, 0x49],
];
for (const [v, lead] of INTS) table[`int.${v}`] = one(v, { lead });

// Longs within ±2^53 decode to numbers (longMode "auto"), beyond to bigints.
const LONGS: [bigint, number][] = [
  [0n, 0xe0],
  [-8n, 0xd8],
  [15n, 0xef],
  [-9n, 0xf7],
  [16n, 0xf8],
  [-2048n, 0xf0],
  [2047n, 0xff],
  [-2049n, 0x3b],
  [2048n, 0x3c],
  [-262144n, 0x38],
  [262143n, 0x3f],
  [-262145n, 0x59],
  [262144n, 0x59],
  [-2147483648n, 0x59],
  [2147483647n, 0x59],
  [2147483648n, 0x4c],
  [-2147483649n, 0x4c],
  [9007199254740991n, 0x4c],
  [-9007199254740991n, 0x4c],
  [9007199254740992n, 0x4c],
  [9007199254740993n, 0x4c],
  [-9007199254740993n, 0x4c],
  [1234567890123456789n, 0x4c],
  [9223372036854775807n, 0x4c],
  [-9223372036854775808n, 0x4c],
];
const TWO_53 = 2n ** 53n;
for (const [v, lead] of LONGS) {
  const decoded = v <= TWO_53 && v >= -TWO_53 ? Number(v) : v;
  table[`long.${v}`] = one(decoded, { lead });
}

// Fixture names use Java's Double.toString; 0x5f is the "int holding value x 1000" form.
const DOUBLES: [string, number, number][] = [
  ["0.0", 0, 0x5b],
  ["1.0", 1, 0x5c],
  ["-1.0", -1, 0x5d],
  ["-128.0", -128, 0x5d],
  ["127.0", 127, 0x5d],
  ["-129.0", -129, 0x5e],
  ["128.0", 128, 0x5e],
  ["-32768.0", -32768, 0x5e],
  ["32767.0", 32767, 0x5e],
  ["32768.0", 32768, 0x5f],
  ["12.25", 12.25, 0x5f],
  ["-0.5", -0.5, 0x5f],
  ["0.001", 0.001, 0x5f],
  ["-0.001", -0.001, 0x5f],
  ["2.675", 2.675, 0x44],
  ["123.456", 123.456, 0x5f],
  ["2147483.647", 2147483.647, 0x5f],
  ["2147483.648", 2147483.648, 0x44],
  ["1.5", 1.5, 0x5f],
  ["1.23456", 1.23456, 0x44],
  ["3.141592653589793", Math.PI, 0x44],
  ["1.0E300", 1e300, 0x44],
  ["-1.0E-300", -1e-300, 0x44],
  ["4.9E-324", Number.MIN_VALUE, 0x44],
  ["1.7976931348623157E308", Number.MAX_VALUE, 0x44],
  ["NaN", Number.NaN, 0x44],
  ["Infinity", Number.POSITIVE_INFINITY, 0x44],
  ["-Infinity", Number.NEGATIVE_INFINITY, 0x44],
  // Java itself writes -0.0 as 0x5b (zero): the sign is lost on the Java side, not ours.
  ["-0.0", 0, 0x5b],
];
for (const [name, v, lead] of DOUBLES) table[`double.${name}`] = one(v, { lead });

for (const n of [31, 32, 1023, 1024, 32767, 32768, 32769, 65536, 70001]) {
  table[`string.pattern.${n}`] = one(patternString(n), {
    lead: n <= 31 ? n : n <= 1023 ? 0x30 + (n >> 8) : n <= 32768 ? 0x53 : 0x52,
  });
}
for (const n of [0, 15, 16, 1023, 1024, 8192, 70000]) {
  const lead = n <= 15 ? 0x20 + n : n <= 1023 ? 0x34 + (n >> 8) : n <= 8189 ? 0x42 : 0x41;
  table[`bytes.${n}`] = one(patternBytes(n), { lead });
}

export const FIXTURE_EXPECTATIONS: Readonly<Record<string, FixtureExpectation>> = table;
