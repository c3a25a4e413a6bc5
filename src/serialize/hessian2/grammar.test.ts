// Golden bytes for every Hessian 2.0 grammar form (the spec's examples; doubles per Java's
// Hessian2Output, which is what every peer really reads), both directions.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { java } from "../../core/index.js";
import { decodeHessian, encodeHessian, Hessian2Reader, Hessian2Writer, javaObject } from "./index.js";

/** "x90 'abc' x5a" -> bytes: hex bytes, and quoted ASCII. */
function bytes(spec: string): Buffer {
  const out: number[] = [];
  for (const token of spec.match(/'[^']*'|\S+/g) ?? []) {
    if (token.startsWith("'")) for (const ch of token.slice(1, -1)) out.push(ch.charCodeAt(0));
    else out.push(Number.parseInt(token.replace(/^x/, ""), 16));
  }
  return Buffer.from(out);
}

function both(value: unknown, spec: string, type?: Parameters<typeof encodeHessian>[1]): void {
  assert.deepEqual(encodeHessian(value, type).toString("hex"), bytes(spec).toString("hex"));
  assert.deepEqual(decodeHessian(bytes(spec), type), value);
}

function reads(spec: string, value: unknown): void {
  assert.deepEqual(decodeHessian(bytes(spec)), value);
}

describe("hessian2 grammar", () => {
  it("hessian2 - null and booleans", () => {
    both(null, "'N'");
    both(true, "'T'");
    both(false, "'F'");
    assert.equal(encodeHessian(undefined).toString("hex"), "4e");
  });

  it("hessian2 - int in every compact form", () => {
    both(0, "x90");
    both(-16, "x80");
    both(47, "xbf");
    both(48, "xc8 x30");
    both(-2048, "xc0 x00");
    both(-256, "xc7 x00");
    both(2047, "xcf xff");
    both(-262144, "xd0 x00 x00");
    both(262143, "xd7 xff xff");
    both(262144, "'I' x00 x04 x00 x00");
    both(-2147483648, "'I' x80 x00 x00 x00");
    reads("'I' x00 x00 x01 x2c", 300);
    reads("xd4 x00 x00", 0);
    reads("xc8 x00", 0);
  });

  it("hessian2 - long in every compact form", () => {
    both(0, "xe0", java.long);
    both(-8, "xd8", java.long);
    both(15, "xef", java.long);
    both(-2048, "xf0 x00", java.long);
    both(-256, "xf7 x00", java.long);
    both(2047, "xff xff", java.long);
    both(-262144, "x38 x00 x00", java.long);
    both(262143, "x3f xff xff", java.long);
    both(300000, "x59 x00 x04 x93 xe0", java.long);
    both(2 ** 40, "'L' x00 x00 x01 x00 x00 x00 x00 x00", java.long);
    both(2 ** 40, "'L' x00 x00 x01 x00 x00 x00 x00 x00");
    reads("'L' x00 x00 x00 x00 x00 x00 x01 x2c", 300);
    reads("x59 x00 x00 x01 x2c", 300);
    reads("xf8 x00", 0);
    reads("x3c x00 x00", 0);
  });

  it("hessian2 - long beyond 2^53 is a bigint, never a rounded number", () => {
    both(2n ** 62n, "'L' x40 x00 x00 x00 x00 x00 x00 x00");
    both(-(2n ** 63n), "'L' x80 x00 x00 x00 x00 x00 x00 x00");
    both(2n ** 63n - 1n, "'L' x7f xff xff xff xff xff xff xff");
    reads("'L' x00 x20 x00 x00 x00 x00 x00 x00", 2 ** 53);
    reads("'L' x00 x20 x00 x00 x00 x00 x00 x01", 2n ** 53n + 1n);
    assert.equal(decodeHessian(bytes("xe1"), undefined, { longMode: "bigint" }), 1n);
    assert.equal(decodeHessian(bytes("x91"), java.longBig), 1n);
    // A contract's java.long says number, and number it is whatever the codec's mode.
    assert.equal(decodeHessian(bytes("x91"), java.long, { longMode: "bigint" }), 1);
    assert.equal(
      decodeHessian(bytes("'L' x00 x20 x00 x00 x00 x00 x00 x01"), undefined, { longMode: "number" }),
      2 ** 53,
    );
  });

  it("hessian2 - a declared java.long is an exact number or fails naming java.longBig", () => {
    assert.equal(decodeHessian(bytes("'L' x00 x20 x00 x00 x00 x00 x00 x00"), java.long), 2 ** 53);
    assert.throws(
      () => decodeHessian(bytes("'L' x00 x20 x00 x00 x00 x00 x00 x01"), java.Long),
      /the Java long 9007199254740993 does not fit a JavaScript number exactly; declare it java\.longBig/,
    );
    assert.equal(decodeHessian(bytes("'L' x00 x20 x00 x00 x00 x00 x00 x01"), java.LongBig), 2n ** 53n + 1n);
    // Rounding is accepted only when asked for.
    assert.equal(
      decodeHessian(bytes("'L' x00 x20 x00 x00 x00 x00 x00 x01"), java.long, { longMode: "number" }),
      2 ** 53,
    );
  });

  it("hessian2 - double in every compact form, 0x5f as int millis like Java", () => {
    both(0, "x5b", java.double);
    both(1, "x5c", java.double);
    both(-128, "x5d x80", java.double);
    both(127, "x5d x7f", java.double);
    both(-32768, "x5e x80 x00", java.double);
    both(32767, "x5e x7f xff", java.double);
    both(12.25, "x5f x00 x00 x2f xda");
    both(0.001, "x5f x00 x00 x00 x01");
    both(-1.5, "x5f xff xff xfa x24");
    both(0.1 + 0.2, "'D' x3f xd3 x33 x33 x33 x33 x33 x34");
    both(1e300, "'D' x7e x37 xe4 x3c x88 x00 x75 x9c");
    reads("'D' x40 x28 x80 x00 x00 x00 x00 x00", 12.25);
    assert.ok(Number.isNaN(decodeHessian(encodeHessian(Number.NaN))));
    // -0 keeps its sign (Java itself would write 0x5b and lose it).
    both(-0, "'D' x80 x00 x00 x00 x00 x00 x00 x00");
    both(-0, "'D' x80 x00 x00 x00 x00 x00 x00 x00", java.double);
    assert.equal(decodeHessian(encodeHessian(Number.POSITIVE_INFINITY)), Number.POSITIVE_INFINITY);
    // A Java float goes as the double nearest to it.
    assert.equal(encodeHessian(1.1, java.float).toString("hex"), "443ff19999a0000000");
  });

  it("hessian2 - dates in both forms", () => {
    both(new Date(894621091000), "x4a x00 x00 x00 xd0 x4b x92 x84 xb8");
    both(new Date(894621060000), "x4b x00 xe3 x83 x8f");
    both(new Date(-60000), "x4b xff xff xff xff");
  });

  it("hessian2 - strings: compact, medium, long, chunked", () => {
    both("", "x00");
    both("hello", "x05 'hello'");
    both("\u00c3", "x01 xc3 x83");
    const s32 = "a".repeat(32);
    both(s32, `x30 x20 '${s32}'`);
    const s1024 = "b".repeat(1024);
    assert.equal(encodeHessian(s1024).subarray(0, 3).toString("hex"), "530400");
    reads("'S' x00 x05 'hello'", "hello");
    reads("'R' x00 x03 'hel' x02 'lo'", "hello");
    reads("'R' x00 x01 'h' 'R' x00 x01 'e' 'S' x00 x03 'llo'", "hello");
    const big = "c".repeat(0x8000 * 2 + 5);
    const encoded = encodeHessian(big);
    assert.equal(encoded[0], 0x52);
    assert.equal(encoded.readUInt16BE(1), 0x8000);
    assert.equal(decodeHessian(encoded), big);
  });

  it("hessian2 - text outside the BMP is two 3-byte surrogate sequences, as Java writes it", () => {
    both("😀", "x02 xed xa0 xbd xed xb8 x80");
    both(`${"x".repeat(20)}😀`, `x16 '${"x".repeat(20)}' xed xa0 xbd xed xb8 x80`);
    // Standard 4-byte UTF-8 (non-Java writers) still reads as two units.
    reads("x02 xf0 x9f x98 x80", "😀");
    // A chunk never splits a surrogate pair.
    const text = `${"a".repeat(0x8000 - 1)}😀tail`;
    const encoded = encodeHessian(text);
    assert.equal(encoded.readUInt16BE(1), 0x7fff);
    assert.equal(decodeHessian(encoded), text);
  });

  it("hessian2 - binary: compact, medium, chunked", () => {
    both(Buffer.alloc(0), "x20");
    both(Buffer.from([1, 2, 3]), "x23 x01 x02 x03");
    both(Buffer.alloc(16, 7), `x34 x10 ${"x07 ".repeat(16)}`);
    both(Buffer.alloc(1024, 9), `'B' x04 x00 ${"x09 ".repeat(1024)}`);
    reads("'A' x00 x02 x01 x02 x21 x03", Buffer.from([1, 2, 3]));
    const big = Buffer.alloc(0x8000 + 10, 5);
    const encoded = encodeHessian(big);
    assert.equal(encoded[0], 0x41);
    assert.deepEqual(decodeHessian(encoded), big);
  });

  it("hessian2 - lists: typed and untyped, fixed and variable, with the type table", () => {
    const ints = Object.defineProperty([0, 1], "$class", { value: "[int" });
    both(ints, "x72 x04 '[int' x90 x91");
    both([0, 1], "x7a x90 x91");
    reads("'V' x04 '[int' x92 x90 x91", ints);
    reads("x55 x04 '[int' x90 x91 'Z'", ints);
    reads("x57 x90 x91 'Z'", [0, 1]);
    reads("'X' x92 x90 x91", [0, 1]);
    const eight = [0, 1, 2, 3, 4, 5, 6, 7];
    both(eight, "'X' x98 x90 x91 x92 x93 x94 x95 x96 x97");
    // The second list of the same type refers to the type table.
    const w = new Hessian2Writer();
    w.writeValue([1], java.array(java.int)).writeValue([2], java.array(java.int));
    assert.equal(w.toBuffer().toString("hex"), bytes("x71 x04 '[int' x91 x71 x90 x92").toString("hex"));
    const r = new Hessian2Reader(bytes("x71 x04 '[int' x91 x71 x90 x92"));
    assert.deepEqual([r.readValue(), r.readValue()], [[1], [2]]);
    assert.equal(r.remaining, 0);
  });

  it("hessian2 - maps: untyped, typed, int keys stay ints", () => {
    const m = new Map<unknown, unknown>([
      [1, "fee"],
      [16, "fie"],
      [256, "foe"],
    ]);
    both(m, "'H' x91 x03 'fee' xa0 x03 'fie' xc9 x00 x03 'foe' 'Z'");
    const car = Object.defineProperty(new Map<unknown, unknown>([["color", "red"]]), "$class", {
      value: "com.caucho.test.Car",
    });
    both(car, "'M' x13 'com.caucho.test.Car' x05 'color' x03 'red' 'Z'");
    both(new Map([["a", 1]]), "'H' x01 'a' x91 'Z'", java.Map(java.String, java.int));
    assert.equal(encodeHessian({ a: 1 }).toString("hex"), bytes("'H' x01 'a' x91 'Z'").toString("hex"));
    assert.equal(
      encodeHessian({ 7: "x" }, java.Map(java.Integer, java.String)).toString("hex"),
      bytes("'H' x97 x01 'x' 'Z'").toString("hex"),
    );
    assert.deepEqual(decodeHessian(bytes("'H' x01 'a' x91 'Z'")), new Map([["a", 1]]));
  });

  it("hessian2 - class definitions and instances, fields by name", () => {
    const red = javaObject("example.Car", { color: "red", model: "corvette" });
    const green = javaObject("example.Car", { color: "green", model: "civic" });
    const w = new Hessian2Writer();
    w.writeValue(red).writeValue(green);
    const wire =
      "'C' x0b 'example.Car' x92 x05 'color' x05 'model' x60 x03 'red' x08 'corvette' x60 x05 'green' x05 'civic'";
    assert.equal(w.toBuffer().toString("hex"), bytes(wire).toString("hex"));
    const r = new Hessian2Reader(bytes(wire));
    const first = r.readValue() as Record<string, unknown>;
    assert.deepEqual(first, red);
    assert.equal((first as { $class?: string }).$class, "example.Car");
    assert.deepEqual(Object.keys(first), ["color", "model"]);
    assert.equal(JSON.stringify(first), '{"color":"red","model":"corvette"}');
    assert.deepEqual({ ...first }, { color: "red", model: "corvette" });
    assert.deepEqual(r.readValue(), green);
    // 'O' form for class index 16 and beyond.
    reads("'C' x01 'A' x90 'O' x90", javaObject("A", {}));
    // Fields are matched by name, whatever order the writer chose.
    const Car = java.Class("example.Car", { model: java.String, color: java.String });
    const typed = decodeHessian(bytes(wire), Car) as Record<string, unknown>;
    assert.equal(typed.model, "corvette");
  });

  it("hessian2 - back-references for shared and cyclic graphs", () => {
    const node: Record<string, unknown> = Object.defineProperty({ head: 1, tail: null }, "$class", {
      value: "LinkedList",
    });
    node.tail = node;
    const wire = "'C' x0a 'LinkedList' x92 x04 'head' x04 'tail' x60 x91 x51 x90";
    assert.equal(encodeHessian(node).toString("hex"), bytes(wire).toString("hex"));
    const back = decodeHessian(bytes(wire)) as Record<string, unknown>;
    assert.equal(back.tail, back);
    const shared = [1];
    const decoded = decodeHessian(encodeHessian([shared, shared])) as unknown[];
    assert.equal(decoded[0], decoded[1]);
    assert.equal(
      encodeHessian([shared, shared]).toString("hex"),
      bytes("x7a x79 x91 x51 x91").toString("hex"),
    );
  });
});
