// TS → Java: JS values with their declared Java types, and what Caucho Hessian (configured like
// Dubbo's hessian-lite) must read from our bytes, in the harness's description format (Describe.java).
import { BizError } from "../../../src/core/error/biz-error.js";
import { type JavaType, java } from "../../../src/core/java/java-type.js";
import { Hessian2Writer } from "../../../src/serialize/hessian2/index.js";
import {
  ColorType,
  jbool,
  jbytesBody,
  jint,
  jlong,
  jobj,
  jstr,
  juser,
  NodeType,
  PrimitivesType,
  patternBytes,
  patternString,
  TeamType,
  UserType,
  user,
} from "./values.js";

export interface TsToJavaCase {
  readonly name: string;
  /** Values written by one Hessian2Writer into one body, each with its declared type (if any). */
  readonly body: readonly (readonly [unknown, JavaType?])[];
  /** What Java read, values joined by " | ". */
  readonly expect: string;
  /** Writes the frame itself instead of encoding `body` (for writer life-cycle cases). */
  readonly frame?: () => Uint8Array;
}

const cases: TsToJavaCase[] = [];
const add = (name: string, value: unknown, type: JavaType | undefined, expect: string) =>
  cases.push({ name, body: [type === undefined ? [value] : [value, type]], expect });

add("null", null, undefined, "null");
add("null as String", null, java.String, "null");
add("true", true, java.boolean, jbool(true));
add("false untyped", false, undefined, jbool(false));
add("string untyped", "hi", undefined, jstr("hi"));
add("integer number untyped", 42, undefined, jint(42));
add("fraction number untyped", 1.5, undefined, "java.lang.Double:1.5");
add("bigint untyped", 9007199254740993n, undefined, jlong(9007199254740993n));

for (const v of [
  0, 1, -1, -16, 47, -17, 48, -2048, 2047, -2049, 2048, -262144, 262143, -262145, 262144, -2147483648,
  2147483647,
]) {
  add(`int ${v}`, v, java.int, jint(v));
}
add("Integer boxed", 7, java.Integer, jint(7));
add("short", -300, java.short, jint(-300));
add("byte", -7, java.byte, jint(-7));

const longs: (number | bigint)[] = [
  0,
  -8,
  15,
  -9,
  16,
  -2048,
  2047,
  -2049,
  2048,
  -262144,
  262143,
  -262145,
  262144,
  -2147483648,
  2147483647,
  2147483648,
  -2147483649,
  9007199254740991,
  -9007199254740991,
  9007199254740993n,
  -9007199254740993n,
  9223372036854775807n,
  -9223372036854775808n,
];
for (const v of longs) add(`long ${v} (${typeof v})`, v, java.long, jlong(v));
add("Long boxed bigint 1234567890123456789", 1234567890123456789n, java.Long, jlong(1234567890123456789n));
add("long given as small bigint", 5n, java.long, jlong(5));

// [JS value, Java's Double.toString of the value Java must read]
const doubles: [number, string][] = [
  [0, "0.0"],
  [-0, "-0.0"],
  [1, "1.0"],
  [-1, "-1.0"],
  [-128, "-128.0"],
  [127, "127.0"],
  [-129, "-129.0"],
  [128, "128.0"],
  [-32768, "-32768.0"],
  [32767, "32767.0"],
  [32768, "32768.0"],
  [12.25, "12.25"],
  [-0.5, "-0.5"],
  [0.001, "0.001"],
  [-0.001, "-0.001"],
  [0.1, "0.1"],
  [0.3, "0.3"],
  [2.675, "2.675"],
  [1.005, "1.005"],
  [123.456, "123.456"],
  [2147483.647, "2147483.647"],
  [2147483.648, "2147483.648"],
  [-2147483.648, "-2147483.648"],
  [1e-4, "1.0E-4"],
  [1.23456, "1.23456"],
  [Math.PI, "3.141592653589793"],
  [1e300, "1.0E300"],
  [Number.MIN_VALUE, "4.9E-324"],
  [Number.MAX_VALUE, "1.7976931348623157E308"],
  [Number.NaN, "NaN"],
  [Number.POSITIVE_INFINITY, "Infinity"],
  [Number.NEGATIVE_INFINITY, "-Infinity"],
  [2147483647, "2.147483647E9"],
  [1.5, "1.5"],
];
for (const [v, javaText] of doubles)
  add(`double ${javaText}`, v, java.double, `java.lang.Double:${javaText}`);
add("Double boxed", 2.5, java.Double, "java.lang.Double:2.5");
add("float 1.5 (top level reads a Double)", 1.5, java.float, "java.lang.Double:1.5");

// Seeded 3-decimal values: whichever form the encoder picks (0x5f or 0x44), Java must read the same double.
let seed = 0x2545f491;
const nextRandom = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};
for (let i = 0; i < 200; i++) {
  const mills = (nextRandom() % 4_000_000_000) - 2_000_000_000;
  const v = mills / 1000;
  // In [1e-3, 1e7) Java's Double.toString and JS agree on the digits; Java always shows a fraction.
  const text = Number.isInteger(v) ? `${v}.0` : String(v);
  if (Math.abs(v) >= 1e-3 && Math.abs(v) < 1e7)
    add(`double seeded ${v}`, v, java.double, `java.lang.Double:${text}`);
}

for (const s of [
  "",
  "a",
  "h\u00e9llo w\u00f6rld \u2603 \u4e2d\u6587",
  "\u{1F600} x \u{1F389}",
  patternString(31),
  patternString(32),
  patternString(1023),
  patternString(1024),
  patternString(32767),
  patternString(32768),
  patternString(32769),
  patternString(65536),
  `${patternString(32767)}\u{1F600}tail`,
  "a\u00e9\u4e2d\u{1F600}".repeat(14000),
]) {
  add(
    `string length ${s.length}${[...s].some((ch) => ch.charCodeAt(0) > 0x7f) ? " non-ASCII" : ""}`,
    s,
    java.String,
    jstr(s),
  );
}
add("char", "x", java.char, jstr("x"));

for (const n of [0, 15, 16, 1023, 1024, 8192, 70000]) {
  add(`byte[] ${n}`, patternBytes(n), java.bytes, `[B:${jbytesBody(patternBytes(n))}`);
}
add("Buffer untyped", Buffer.from([1, 2, 3]), undefined, `[B:${jbytesBody(Uint8Array.of(1, 2, 3))}`);

for (const ms of [1700000000123, 1700000040000, 0, -86400000, 253402300799999]) {
  add(`Date ${ms}`, new Date(ms), java.Date, `java.util.Date:${ms}`);
}
add("Date untyped", new Date(1700000000123), undefined, "java.util.Date:1700000000123");

const ann = () => user(1, "ann", ["admin", "dev"]);
const annText = juser(1, "ann", ["admin", "dev"]);
const bobText = juser(2, "bob", []);

add("User", ann(), UserType, annText);
add(
  "User from a plain object (no $class)",
  { id: 1, name: "ann", tags: ["admin", "dev"] },
  UserType,
  annText,
);
add("User with nulls", { id: 0, name: null, tags: null }, UserType, juser(0, null, null));
add("User with bigint id", user(9007199254740993n, "big", []), UserType, juser(9007199254740993n, "big", []));
add("decoded User re-sent without a type keeps its class", ann(), undefined, annText);
add(
  "List<User>",
  [ann(), user(2, "bob", [])],
  java.List(UserType),
  `java.util.ArrayList[${annText},${bobText}]`,
);
add(
  "ArrayList<String>",
  ["x", "y"],
  java.ArrayList(java.String),
  `java.util.ArrayList[${jstr("x")},${jstr("y")}]`,
);
add(
  "List<Long> of small numbers",
  [1, 2],
  java.List(java.Long),
  `java.util.ArrayList[${jlong(1)},${jlong(2)}]`,
);
add("List<Integer>", [1, 2], java.List(java.Integer), `java.util.ArrayList[${jint(1)},${jint(2)}]`);
add(
  "List untyped, mixed",
  [1, "a", null, true],
  undefined,
  `java.util.ArrayList[${jint(1)},${jstr("a")},null,${jbool(true)}]`,
);
add("empty List", [], java.List(java.String), "java.util.ArrayList[]");
add(
  "List<List<Integer>>",
  [[1, 2], [3]],
  java.List(java.List(java.Integer)),
  `java.util.ArrayList[java.util.ArrayList[${jint(1)},${jint(2)}],java.util.ArrayList[${jint(3)}]]`,
);
add(
  "Set<String>",
  new Set(["b", "a"]),
  java.Set(java.String),
  `java.util.HashSet[${jstr("a")},${jstr("b")}]`,
);
add(
  "HashSet<Integer> from an array",
  [3, 1],
  java.HashSet(java.Integer),
  `java.util.HashSet[${jint(1)},${jint(3)}]`,
);

add("int[]", [1, -2, 300000], java.array(java.int), "[I[1,-2,300000]");
add("empty int[]", [], java.array(java.int), "[I[]");
add("long[]", [1, 9007199254740993n], java.array(java.long), "[J[1,9007199254740993]");
add("double[]", [0.5, -2], java.array(java.double), "[D[0.5,-2.0]");
add("boolean[]", [true, false], java.array(java.boolean), "[Z[true,false]");
add(
  "String[]",
  ["a", null, "b"],
  java.array(java.String),
  `[Ljava.lang.String;[${jstr("a")},null,${jstr("b")}]`,
);
add("Object[]", [1, "a"], java.array(java.Object), `[Ljava.lang.Object;[${jint(1)},${jstr("a")}]`);
add("User[]", [ann(), user(2, "bob", [])], java.array(UserType), `[Lcom.foo.User;[${annText},${bobText}]`);
add("int[][]", [[1], [2, 3]], java.array(java.array(java.int)), "[[I[[I[1],[I[2,3]]");

add(
  "Map<String,Integer> from a Map",
  new Map([
    ["b", 2],
    ["a", 1],
  ]),
  java.Map(java.String, java.Integer),
  `java.util.HashMap{${jstr("a")}=>${jint(1)},${jstr("b")}=>${jint(2)}}`,
);
add(
  "Map<String,Integer> from a plain object",
  { a: 1, b: 2 },
  java.Map(java.String, java.Integer),
  `java.util.HashMap{${jstr("a")}=>${jint(1)},${jstr("b")}=>${jint(2)}}`,
);
add(
  "Map<Integer,String> keeps int keys",
  new Map([
    [1, "one"],
    [-300, "minus"],
  ]),
  java.Map(java.Integer, java.String),
  `java.util.HashMap{${jint(-300)}=>${jstr("minus")},${jint(1)}=>${jstr("one")}}`,
);
add(
  "Map<Long,User>",
  new Map([[9007199254740993n, ann()]]),
  java.Map(java.Long, UserType),
  `java.util.HashMap{${jlong(9007199254740993n)}=>${annText}}`,
);
add("Map untyped", new Map([["k", 1]]), undefined, `java.util.HashMap{${jstr("k")}=>${jint(1)}}`);
add("empty Map", new Map(), java.Map(java.String, java.String), "java.util.HashMap{}");

add("enum", "BLUE", ColorType, "com.foo.Color:BLUE");
add(
  "List<Color> with repeats",
  ["RED", "GREEN", "RED"],
  java.List(ColorType),
  "java.util.ArrayList[com.foo.Color:RED,com.foo.Color:GREEN,com.foo.Color:RED]",
);

for (const d of ["100.06", "-12345678901234567890.123456789", "0.000", "1E+3", "0"]) {
  add(`BigDecimal ${d}`, d, java.BigDecimal, `java.math.BigDecimal:${d}`);
}
add(
  "List<BigDecimal>",
  ["9.99", "0.01"],
  java.List(java.BigDecimal),
  "java.util.ArrayList[java.math.BigDecimal:9.99,java.math.BigDecimal:0.01]",
);
for (const b of [0n, 1n, -1n, 12345678901234567890n, -98765432109876543210987654321n, 2n ** 64n]) {
  add(`BigInteger ${b}`, b, java.BigInteger, `java.math.BigInteger:${b}`);
}

add(
  "Primitives (every field kind)",
  {
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
    color: "GREEN",
  },
  PrimitivesType,
  'com.foo.Primitives{b=java.lang.Byte:-7,boxed=null,c=java.lang.Character:"x",color=com.foo.Color:GREEN,' +
    `counts=java.util.HashMap{${jstr("k")}=>${jint(3)}},d=java.lang.Double:2.675,f=java.lang.Float:1.5,` +
    `i=${jint(70000)},ints=[I[1,2],j=${jlong(9007199254740993n)},money=java.math.BigDecimal:100.06,` +
    `s=java.lang.Short:-300,str=${jstr("s")},when=java.util.Date:1700000000123,z=java.lang.Boolean:true}`,
);

add(
  "LocalDate from a Date",
  new Date(Date.UTC(2024, 1, 29)),
  java.LocalDate,
  "java.time.LocalDate:2024-02-29",
);
add("LocalTime from text", "13:45:30.123", java.LocalTime, "java.time.LocalTime:13:45:30.123");
add(
  "LocalDateTime from a Date",
  new Date(Date.UTC(2024, 1, 29, 13, 45, 30, 123)),
  java.LocalDateTime,
  "java.time.LocalDateTime:2024-02-29T13:45:30.123",
);
add(
  "Instant from a Date",
  new Date(1700000000123),
  java.Instant,
  "java.time.Instant:2023-11-14T22:13:20.123Z",
);
add("Duration from text", "PT1H2M3.5S", java.Duration, "java.time.Duration:PT1H2M3.5S");

// Shared and cyclic graphs: Java must see one instance where JS has one object.
{
  const shared = ann();
  add(
    "List with one User twice",
    [shared, shared],
    java.List(UserType),
    `java.util.ArrayList[#1=${annText},#1]`,
  );
  const team = { name: "core", lead: shared, members: [shared, user(2, "bob", [])] };
  add(
    "Team whose lead is a member",
    team,
    TeamType,
    `com.foo.Team{lead=#1=${annText},members=java.util.ArrayList[#1,${bobText}],name=${jstr("core")}}`,
  );
  const a: Record<string, unknown> = { name: "a", next: null };
  a.next = { name: "b", next: a };
  add(
    "Node cycle a -> b -> a",
    a,
    NodeType,
    `#1=com.foo.Node{name=${jstr("a")},next=com.foo.Node{name=${jstr("b")},next=#1}}`,
  );
  const loop: Record<string, unknown> = jobj("com.foo.Node", { name: "loop", next: null as unknown });
  loop.next = loop;
  add(
    "Node pointing at itself, untyped with $class",
    loop,
    undefined,
    `#1=com.foo.Node{name=${jstr("loop")},next=#1}`,
  );
  const selfList: unknown[] = ["me"];
  selfList.push(selfList);
  add("List containing itself", selfList, undefined, `#1=java.util.ArrayList[${jstr("me")},#1]`);

  // One body, several values: class definitions and references are shared across them.
  cases.push({
    name: "body of two Users shares the class definition",
    body: [
      [ann(), UserType],
      [user(2, "bob", ["ops"]), UserType],
    ],
    expect: `${annText} | ${juser(2, "bob", ["ops"])}`,
  });
  cases.push({
    name: "body with one User as two arguments shares the reference",
    body: [
      [shared, UserType],
      [shared, UserType],
    ],
    expect: `#1=${annText} | #1`,
  });
  cases.push({
    name: "body of mixed arguments",
    body: [
      ["hello", java.String],
      [9007199254740993n, java.long],
      [[ann()], java.List(UserType)],
      [new Map([[1, "x"]]), java.Map(java.Integer, java.String)],
    ],
    expect: `${jstr("hello")} | ${jlong(9007199254740993n)} | java.util.ArrayList[${annText}] | java.util.HashMap{${jint(1)}=>${jstr("x")}}`,
  });
}

// Errors: Java must read a Throwable of the chosen class, with its message (and cause).
add(
  "JS Error",
  new Error("boom"),
  undefined,
  `java.lang.RuntimeException(message=${jstr("boom")},cause=null)`,
);
add(
  "BizError with a Java class",
  new BizError("bad argument", { javaClass: "java.lang.IllegalArgumentException" }),
  undefined,
  `java.lang.IllegalArgumentException(message=${jstr("bad argument")},cause=null)`,
);
add(
  "BizError with a cause",
  new BizError("outer", {
    javaClass: "java.lang.IllegalStateException",
    cause: new BizError("inner", { javaClass: "java.lang.IllegalArgumentException" }),
  }),
  undefined,
  `java.lang.IllegalStateException(message=${jstr("outer")},cause=java.lang.IllegalArgumentException(message=${jstr("inner")},cause=null))`,
);
add(
  "BizError of a user exception class with a field",
  new BizError("insufficient funds", { javaClass: "com.foo.BizException", fields: { errorCode: 42 } }),
  undefined,
  `com.foo.BizException(message=${jstr("insufficient funds")},cause=null,errorCode=${jint(42)})`,
);

cases.push({
  name: "a writer reset between bodies starts a fresh class and reference table",
  body: [],
  expect: juser(2, "b", []),
  frame: () => {
    const writer = new Hessian2Writer();
    writer.writeValue(user(1, "a", []), UserType);
    writer.toBuffer();
    writer.reset();
    writer.writeValue(user(2, "b", []), UserType);
    return writer.toBuffer();
  },
});

export const TS_TO_JAVA_CASES: readonly TsToJavaCase[] = cases;
