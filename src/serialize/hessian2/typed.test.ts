// Java type mapping: what each declared Java type puts on the wire, and what comes back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BizError, Code, java, RpcError } from "../../core/index.js";
import {
  decodeHessian,
  encodeHessian,
  Hessian2Reader,
  Hessian2Writer,
  javaClassOf,
  javaObject,
} from "./index.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const ascii = (s: string) => Buffer.from(s, "latin1").toString("hex");
const roundTrip = (value: unknown, type?: Parameters<typeof encodeHessian>[1]) =>
  decodeHessian(encodeHessian(value, type), type);

const User = java.Class("com.foo.User", { id: java.long, name: java.String, tags: java.List(java.String) });

function rejects(fn: () => unknown, code: Code, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof RpcError, `expected RpcError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  });
}

describe("hessian2 typed mapping", () => {
  it("hessian2 - List<User> elements become com.foo.User objects without hand wrapping", () => {
    const users = [
      { id: 1, name: "ann", tags: ["a"] },
      { id: 2, name: "bob", tags: [] },
    ];
    const bytes = encodeHessian(users, java.List(User));
    const expected =
      `7a43${ascii("\x0ccom.foo.User")}93${ascii("\x02id\x04name\x04tags")}` +
      `60e1${ascii("\x03ann")}79${ascii("\x01a")}60e2${ascii("\x03bob")}78`;
    assert.equal(hex(bytes), expected);
    const back = decodeHessian(bytes, java.List(User)) as Record<string, unknown>[];
    const asDecoded = users.map((u) => javaObject("com.foo.User", u));
    assert.deepEqual(back, asDecoded);
    assert.equal((back[0] as { $class?: string }).$class, "com.foo.User");
    assert.equal(javaClassOf(back[0]), "com.foo.User");
    assert.deepEqual({ ...back[0] }, users[0]);
    // An untouched decoded object re-encodes as the same class even untyped (a JS number cannot
    // remember it was a long, so `id` goes as an int, which Java reads into a long field).
    const again = decodeHessian(encodeHessian(back)) as Record<string, unknown>[];
    assert.deepEqual(again, asDecoded);
    assert.equal((again[1] as { $class?: string }).$class, "com.foo.User");
    assert.equal(hex(encodeHessian(back, java.List(User))), expected);
  });

  it("hessian2 - a wrong value names its path and the expected Java type", () => {
    const w = new Hessian2Writer();
    rejects(
      () => w.writeValue({ id: 1, name: "x", tags: ["a", "b", 3] }, User, "args[0]"),
      Code.InvalidArgument,
      /args\[0\]\.tags\[2\]: expected java\.lang\.String, got number 3/,
    );
    rejects(() => encodeHessian(2 ** 31, java.int), Code.InvalidArgument, /expected int/);
    rejects(() => encodeHessian(null, java.int), Code.InvalidArgument, /expected int, got null/);
    rejects(() => encodeHessian(2n ** 64n), Code.InvalidArgument, /64-bit long/);
    rejects(() => encodeHessian(1.5, java.long), Code.InvalidArgument, /expected long/);
    rejects(
      () => encodeHessian("x", java.enum("com.foo.Color", ["RED"])),
      Code.InvalidArgument,
      /one of RED/,
    );
    rejects(() => encodeHessian(Symbol("s")), Code.InvalidArgument, /serializable/);
    // A failed value leaves the body as it was before it.
    w.reset();
    w.writeValue(1);
    assert.throws(() => w.writeValue([1, 2, Symbol("x")]));
    w.writeValue(2);
    assert.equal(hex(w.toBuffer()), "9192");
  });

  it("hessian2 - primitive and boxed coercions", () => {
    assert.equal(hex(encodeHessian(5, java.long)), "e5");
    assert.equal(hex(encodeHessian(5n, java.int)), "95");
    assert.equal(hex(encodeHessian(5, java.short)), "95");
    assert.equal(hex(encodeHessian(5, java.double)), "5d05");
    assert.equal(hex(encodeHessian("x", java.char)), "0178");
    assert.equal(hex(encodeHessian(0, java.Date)), "4b00000000");
    assert.equal(hex(encodeHessian(null, java.Integer)), "4e");
    assert.equal(roundTrip(7, java.long), 7);
    assert.equal(decodeHessian(encodeHessian(7, java.int), java.longBig), 7n);
  });

  it("hessian2 - BigDecimal is hessian-lite's object with field value; decodes to its text", () => {
    const bytes = encodeHessian("100.06", java.BigDecimal);
    assert.equal(
      hex(bytes),
      `43${ascii("\x14java.math.BigDecimal")}91${ascii("\x05value")}60${ascii("\x06100.06")}`,
    );
    assert.equal(decodeHessian(bytes), "100.06");
    assert.equal(roundTrip(12.5, java.BigDecimal), "12.5");
    rejects(() => encodeHessian("12,5", java.BigDecimal), Code.InvalidArgument, /BigDecimal/);
  });

  it("hessian2 - BigInteger as its signum and mag fields, any size", () => {
    for (const v of [0n, 1n, -1n, 2n ** 32n, -(2n ** 100n) + 7n, 123456789012345678901234567890n]) {
      assert.equal(roundTrip(v, java.BigInteger), v);
    }
    assert.equal(roundTrip("42", java.BigInteger), 42n);
  });

  it("hessian2 - enums are a class with the field name", () => {
    const Color = java.enum("com.foo.Color", ["RED", "GREEN"]);
    const bytes = encodeHessian("RED", Color);
    assert.equal(hex(bytes), `43${ascii("\x0dcom.foo.Color")}91${ascii("\x04name")}60${ascii("\x03RED")}`);
    assert.equal(decodeHessian(bytes, Color), "RED");
    const untyped = decodeHessian(bytes) as { name: string; $class: string };
    assert.deepEqual(untyped, javaObject("com.foo.Color", { name: "RED" }));
    assert.equal(untyped.$class, "com.foo.Color");
    assert.equal(hex(encodeHessian(untyped)), hex(bytes));
  });

  it("hessian2 - arrays carry Caucho's ArraySerializer type names", () => {
    assert.equal(hex(encodeHessian([1, 2], java.array(java.int))), `72${ascii("\x04[int")}9192`);
    assert.equal(hex(encodeHessian(["a"], java.array(java.String))), `71${ascii("\x07[string")}0161`);
    assert.equal(hex(encodeHessian([null], java.array(java.Object))), `71${ascii("\x07[object")}4e`);
    assert.equal(
      hex(encodeHessian([[1]], java.array(java.array(java.long)))),
      `71${ascii("\x06[[long")}71${ascii("\x05[long")}e1`,
    );
    assert.ok(hex(encodeHessian([], java.array(User))).startsWith(`70${ascii("\x0d[com.foo.User")}`));
    assert.equal(hex(encodeHessian(new Uint8Array([1]), java.array(java.byte))), "2101");
    assert.equal(hex(encodeHessian(["h", "i"], java.array(java.char))), "026869");
    const back = roundTrip([{ id: 1, name: "a", tags: [] }], java.array(User)) as unknown[];
    assert.equal((back as { $class?: string }).$class, "[com.foo.User");
  });

  it("hessian2 - sets and maps follow Java's collection serializers", () => {
    assert.equal(hex(encodeHessian(new Set([1]))), `71${ascii("\x11java.util.HashSet")}91`);
    assert.equal(hex(encodeHessian([1], java.Set(java.int))), `71${ascii("\x11java.util.HashSet")}91`);
    assert.equal(hex(encodeHessian([1], java.List(java.int))), "7991");
    assert.deepEqual(roundTrip(new Set(["a", "b"]), java.Set(java.String)), new Set(["a", "b"]));
    const byId = new Map([[1, { id: 1, name: "a", tags: [] }]]);
    const back = roundTrip(byId, java.Map(java.long, User)) as Map<number, { $class?: string }>;
    assert.equal(back.get(1)?.$class, "com.foo.User");
    assert.equal(hex(encodeHessian(new Map(), java.Map(java.String, java.String))), "485a");
    assert.equal(hex(encodeHessian(new Map(), java.type("java.util.TreeMap"))), "485a");
  });

  it("hessian2 - java.time values as hessian-lite's handle classes", () => {
    const day = new Date(Date.UTC(2024, 1, 29));
    const bytes = encodeHessian(day, java.LocalDate);
    assert.ok(hex(bytes).includes(ascii("LocalDateHandle")));
    assert.ok(hex(bytes).endsWith(`${ascii("\x04year\x05month\x03day")}60cfe892ad`));
    assert.deepEqual(decodeHessian(bytes), day);
    assert.deepEqual(roundTrip("1999-12-31", java.LocalDate), new Date(Date.UTC(1999, 11, 31)));
    assert.equal(roundTrip("10:15", java.LocalTime), "10:15");
    assert.equal(roundTrip("10:15:30.000000123", java.LocalTime), "10:15:30.000000123");
    const moment = new Date(Date.UTC(2024, 1, 29, 23, 59, 58, 250));
    assert.deepEqual(roundTrip(moment, java.LocalDateTime), moment);
    assert.deepEqual(roundTrip(moment, java.Instant), moment);
    assert.deepEqual(roundTrip(new Date(-1500), java.Instant), new Date(-1500));
    for (const d of ["PT0S", "PT1.5S", "PT-0.5S", "PT26H3M", "PT-1H-2M", "PT0.000000001S"]) {
      assert.equal(roundTrip(d, java.Duration), d);
    }
    assert.equal(roundTrip(90_000, java.Duration), "PT1M30S");
  });

  it("hessian2 - registered TS classes decode as instances and encode as their Java class", () => {
    class Point {
      x = 0;
      y = 0;
    }
    const options = { classes: { "com.foo.Point": Point } };
    const p = Object.assign(new Point(), { x: 3, y: 4 });
    const bytes = encodeHessian(p, undefined, options);
    assert.ok(hex(bytes).includes(ascii("com.foo.Point")));
    const back = decodeHessian(bytes, undefined, options);
    assert.ok(back instanceof Point);
    assert.deepEqual({ ...back }, { x: 3, y: 4 });
  });
});

describe("hessian2 exceptions", () => {
  it("hessian2 - an Error is written as a Throwable Java reads with its class and message", () => {
    const error = new BizError("no such user", {
      javaClass: "java.lang.IllegalArgumentException",
      fields: { code: 7 },
    });
    const bytes = encodeHessian(error);
    const text = bytes.toString("latin1");
    for (const part of [
      "java.lang.IllegalArgumentException",
      "detailMessage",
      "stackTrace",
      "[java.lang.StackTraceElement",
    ]) {
      assert.ok(text.includes(part), part);
    }
    const back = decodeHessian(bytes);
    assert.ok(back instanceof BizError);
    assert.equal(back.message, "no such user");
    assert.equal(back.javaClass, "java.lang.IllegalArgumentException");
    assert.deepEqual(back.fields, { code: 7 });
    const plain = decodeHessian(encodeHessian(new TypeError("bad"))) as BizError;
    assert.equal(plain.javaClass, "java.lang.RuntimeException");
    assert.equal(plain.message, "bad");
    assert.ok(plain.javaStack.length > 0);
  });

  it("hessian2 - a Java exception decodes with cause, stack and fields; a self cause is no cause", () => {
    const frame = (m: string, line: number) =>
      Object.defineProperty(
        { declaringClass: "com.foo.Svc", methodName: m, fileName: "Svc.java", lineNumber: line },
        "$class",
        {
          value: "java.lang.StackTraceElement",
        },
      );
    const root: Record<string, unknown> = Object.defineProperty(
      { detailMessage: "disk full", cause: null, stackTrace: [frame("write", 10)] },
      "$class",
      { value: "java.io.IOException" },
    );
    root.cause = root;
    const top = Object.defineProperty(
      {
        detailMessage: "save failed",
        cause: root,
        stackTrace: [frame("save", 42), frame("run", -2)],
        errorCode: 500,
      },
      "$class",
      { value: "com.foo.SaveException" },
    );
    const back = decodeHessian(encodeHessian(top)) as BizError;
    assert.ok(back instanceof BizError);
    assert.equal(back.javaClass, "com.foo.SaveException");
    assert.equal(back.message, "save failed");
    assert.deepEqual(back.javaStack, ["com.foo.Svc.save(Svc.java:42)", "com.foo.Svc.run(Native Method)"]);
    assert.deepEqual(back.fields, { errorCode: 500 });
    const cause = back.cause as BizError;
    assert.ok(cause instanceof BizError);
    assert.equal(cause.message, "disk full");
    assert.equal(cause.cause, undefined);
    // Re-encoding keeps the Java class and stack.
    const again = decodeHessian(encodeHessian(back)) as BizError;
    assert.equal(again.javaClass, "com.foo.SaveException");
    assert.deepEqual(again.javaStack, back.javaStack);
  });
});

describe("hessian2 safety of decoded keys", () => {
  it("hessian2 - __proto__ and constructor fields are own data properties, never the prototype", () => {
    const w = new Hessian2Writer();
    const evil = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}}');
    Object.defineProperty(evil, "$class", { value: "com.evil.Bean" });
    w.writeValue(evil);
    const back = new Hessian2Reader(w.toBuffer()).readValue() as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(back), Object.getPrototypeOf(javaObject("com.evil.Bean")));
    assert.equal(Object.getPrototypeOf(Object.getPrototypeOf(back)), Object.prototype);
    assert.ok(Object.hasOwn(back, "__proto__"));
    assert.ok(Object.hasOwn(back, "constructor"));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const map = decodeHessian(encodeHessian(JSON.parse('{"__proto__": 1}'))) as Map<string, unknown>;
    assert.equal(map.get("__proto__"), 1);
  });
});

describe("hessian2 maps read as records", () => {
  it("readRecord - an untyped map becomes the string-keyed record a copy of the Map gave; other forms are left unread", () => {
    const shared = ["x"];
    const w = new Hessian2Writer();
    w.writeValue(
      new Map<unknown, unknown>([
        ["path", "com.foo.Demo"],
        [7, 9007199254740993n],
        ["a", shared],
        ["b", shared],
      ]),
    );
    w.writeValue(JSON.parse('{"__proto__": {"polluted": 1}, "k": "v"}'));
    w.writeValue(["not", "a map"]);
    w.writeValue(null);
    const r = new Hessian2Reader(w.toBuffer());
    const first = r.readRecord();
    assert.deepEqual(first, { 7: 9007199254740993n, path: "com.foo.Demo", a: ["x"], b: ["x"] });
    assert.equal(first?.a, first?.b, "a back-reference inside still resolves to the same list");
    const second = r.readRecord();
    assert.deepEqual(second, { k: "v" });
    assert.ok(!Object.hasOwn(second!, "__proto__"));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const at = r.offset;
    assert.equal(r.readRecord(), undefined, "a list is not read as a record");
    assert.equal(r.offset, at);
    assert.deepEqual(r.readValue(), ["not", "a map"]);
    assert.equal(r.readRecord(), undefined);
    assert.equal(r.readValue(), null);
  });
});

describe("hessian2 untyped values keep their Java type", () => {
  it("slots - Longs and whole Doubles in a map of Object re-encode byte for byte", () => {
    // H "id" → long 5 (e5), "price" → double 1.0 (5c), "n" → double 0.0 (5b), Z
    const original = Buffer.from("48026964e5057072696365" + "5c" + "016e5b" + "5a", "hex");
    const decoded = new Hessian2Reader(original).readValue() as Map<string, unknown>;
    assert.deepEqual([...decoded.values()], [5, 1, 0]);
    assert.deepEqual(Object.keys(decoded), [], "the types are invisible");
    assert.deepEqual(new Hessian2Writer().writeValue(decoded).toBuffer(), original);
  });

  it("slots - a value replaced by another shape is written as itself", () => {
    const original = Buffer.from("7a" + "e5" + "e6", "hex"); // a 2-element list of longs 5 and 6
    const list = new Hessian2Reader(original).readValue() as unknown[];
    assert.deepEqual(new Hessian2Writer().writeValue(list).toBuffer(), original);
    list[1] = "six";
    assert.deepEqual(new Hessian2Writer().writeValue(list).toBuffer(), Buffer.from("7ae503736978", "hex"));
  });
});
