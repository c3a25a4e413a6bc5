// Value builders shared by the Java conformance tests. They rebuild exactly the values the Java
// harness writes (java/dubbots/interop/Fixtures.java) and format expectations the way the harness
// describes what Java read (java/dubbots/interop/Describe.java).
import { createHash } from "node:crypto";
import { java } from "../../../src/core/java/java-type.js";
import { javaObject } from "../../../src/serialize/hessian2/java-object.js";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Same cycle as Fixtures.patternString. */
export function patternString(length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) s += ALPHABET[i % ALPHABET.length];
  return s;
}

/** Same bytes as Fixtures.patternBytes. */
export function patternBytes(length: number): Uint8Array {
  const b = new Uint8Array(length);
  for (let i = 0; i < length; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
}

/** A decoded Java object as the codec shapes it: fields on an object whose prototype carries `$class`. */
export function jobj<T extends object>(javaClass: string, fields: T): T {
  return javaObject(javaClass, fields);
}

export const UserType = java.Class("com.foo.User", {
  id: java.long,
  name: java.String,
  tags: java.List(java.String),
});

export const NodeFields = { name: java.String, next: java.Object };
export const NodeType = java.Class("com.foo.Node", NodeFields);

export const TeamType = java.Class("com.foo.Team", {
  name: java.String,
  lead: UserType,
  members: java.List(UserType),
});

export const ColorType = java.enum("com.foo.Color", ["RED", "GREEN", "BLUE"] as const);

export const PrimitivesType = java.Class("com.foo.Primitives", {
  z: java.boolean,
  b: java.byte,
  s: java.short,
  i: java.int,
  j: java.longBig,
  f: java.float,
  d: java.double,
  c: java.char,
  boxed: java.Integer,
  str: java.String,
  when: java.Date,
  money: java.BigDecimal,
  ints: java.array(java.int),
  counts: java.Map(java.String, java.Integer),
  color: ColorType,
});

export function user(id: number | bigint, name: string | null, tags: string[] | null) {
  return jobj("com.foo.User", { id, name, tags });
}

// ---- expectations in the Java harness's description format ----

function sha256Prefix(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

/** Describe.quote: printable ASCII as is, every other UTF-16 unit as \uXXXX. */
export function javaQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) out += s[i];
    else out += `\\u${c.toString(16).padStart(4, "0")}`;
  }
  return `${out}"`;
}

/** Describe.string: how Java prints a java.lang.String it read. */
export function jstr(s: string): string {
  if (s.length <= 80) return `java.lang.String:${javaQuote(s)}`;
  const units = Buffer.alloc(s.length * 2);
  for (let i = 0; i < s.length; i++) units.writeUInt16LE(s.charCodeAt(i), 2 * i);
  return `java.lang.String:len=${s.length},sha256=${sha256Prefix(units)}`;
}

/** Describe.bytes body (after "[B:"). */
export function jbytesBody(b: Uint8Array): string {
  if (b.length <= 64) return `len=${b.length},hex=${Buffer.from(b).toString("hex")}`;
  return `len=${b.length},sha256=${sha256Prefix(b)}`;
}

export const jint = (n: number) => `java.lang.Integer:${n}`;
export const jlong = (n: number | bigint) => `java.lang.Long:${n}`;
export const jbool = (b: boolean) => `java.lang.Boolean:${b}`;

/** `com.foo.User{...}` as Describe prints it (fields sorted by name). */
export function juser(id: number | bigint, name: string | null, tags: string[] | null): string {
  const tagList = tags === null ? "null" : `java.util.ArrayList[${tags.map(jstr).join(",")}]`;
  return `com.foo.User{id=${jlong(id)},name=${name === null ? "null" : jstr(name)},tags=${tagList}}`;
}
