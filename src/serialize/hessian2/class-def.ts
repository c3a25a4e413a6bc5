/**
 * Class definitions as the reader keeps them. A service answers with the same few classes in
 * every body, so a definition read once is shared by later bodies with the same name and field
 * list: no per-body field array, special-class checks or prototype lookup.
 */
import type { JavaType } from "../../core/index.js";
import { javaPrototype } from "./java-object.js";
import { BIG_DECIMAL, BIG_INTEGER, isThrowableClass } from "./java-values.js";

/** What a class definition turns into once its fields are read. */
export enum Special {
  None = 0,
  BigDecimal = 1,
  BigInteger = 2,
  Time = 3,
  Throwable = 4,
}

export interface ClassDef {
  readonly name: string;
  readonly fields: readonly string[];
  readonly special: Special;
  /** A field is named `__proto__`: store fields the careful way. */
  readonly unsafeNames: boolean;
  /** Shared prototype carrying `$class`, for instances of an unregistered class. */
  readonly proto: object;
  /** The bytes after the class name (field count and names) as first read: a later body sending the same bytes reuses this definition. */
  readonly tail: Uint8Array;
  /** The declared type `fieldTypes` was resolved for (a one-entry cache). */
  typedFor: JavaType | undefined;
  /** Declared type of each field, in definition order, for `typedFor`. */
  fieldTypes: readonly (JavaType | undefined)[];
}

/** Shared definitions are bounded in number and size, so hostile input cannot grow them forever. */
const MAX_SHARED_DEFS = 4096;
const MAX_SHARED_FIELDS = 256;
const shared = new Map<string, ClassDef>();

const EMPTY_TAIL = new Uint8Array(0);
const JAVA8_TIME = "com.alibaba.com.caucho.hessian.io.java8.";

export function sharedClassDef(name: string): ClassDef | undefined {
  return shared.get(name);
}

/** `tail` may be a view of the input: it is copied only if the definition is shared. */
export function createClassDef(name: string, fields: readonly string[], tail: Uint8Array): ClassDef {
  let special = Special.None;
  if (name === BIG_DECIMAL) special = Special.BigDecimal;
  else if (name === BIG_INTEGER) special = Special.BigInteger;
  else if (name.startsWith(JAVA8_TIME)) special = Special.Time;
  else if (isThrowableClass(fields)) special = Special.Throwable;
  const share = fields.length <= MAX_SHARED_FIELDS && (shared.size < MAX_SHARED_DEFS || shared.has(name));
  const def: ClassDef = {
    name,
    fields,
    special,
    unsafeNames: fields.includes("__proto__"),
    proto: javaPrototype(name),
    tail: share ? Uint8Array.prototype.slice.call(tail) : EMPTY_TAIL,
    typedFor: undefined,
    fieldTypes: [],
  };
  if (share) shared.set(name, def);
  return def;
}

/** The declared type of each field of `def` under class type `t` (undefined when t describes another class). */
export function fieldTypesOf(
  def: ClassDef,
  t: JavaType | undefined,
): readonly (JavaType | undefined)[] | undefined {
  if (t === undefined || t.kind !== "class" || t.name !== def.name || t.fields === undefined)
    return undefined;
  if (def.typedFor === t) return def.fieldTypes;
  const declared = t.fields;
  const types = def.fields.map((field) => (Object.hasOwn(declared, field) ? declared[field] : undefined));
  def.typedFor = t;
  def.fieldTypes = types;
  return types;
}
