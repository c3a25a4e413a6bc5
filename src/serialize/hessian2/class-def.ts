/**
 * Class definitions as the reader keeps them. A service answers with the same few classes in
 * every body, so a definition read once is shared by later bodies with the same name and field
 * list: no per-body field array, special-class checks or prototype lookup.
 */
import { type JavaType, java } from "../../core/index.js";
import { javaPrototype } from "./java-object.js";
import { BIG_DECIMAL, BIG_INTEGER, isThrowableClass } from "./java-values.js";

/** What a class definition turns into once its fields are read. */
export enum Special {
  None = 0,
  BigDecimal = 1,
  BigInteger = 2,
  Time = 3,
  Throwable = 4,
  EnumSet = 5,
}

/**
 * What hessian-lite (Dubbo's) writes for a Java `EnumSet`: an object with the element class
 * (`type`) and the elements (`objects`), which Java's reader turns back into the set.
 */
const ENUM_SET_HANDLER = "com.alibaba.com.caucho.hessian.io.EnumSetHandler";
const ENUM_SET_ELEMENTS = "objects";

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
  else if (name === ENUM_SET_HANDLER) special = Special.EnumSet;
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

/**
 * The declared type of each field of `def` under type `t`: a class type's fields, or for an
 * EnumSet read as a declared Set, its elements as a list of the Set's element type (undefined
 * when `t` describes something else).
 */
export function fieldTypesOf(
  def: ClassDef,
  t: JavaType | undefined,
): readonly (JavaType | undefined)[] | undefined {
  if (t === undefined) return undefined;
  if (def.typedFor === t) return def.fieldTypes;
  let types: (JavaType | undefined)[];
  if (def.special === Special.EnumSet && t.kind === "set") {
    const elements = java.List(t.element ?? java.Object);
    types = def.fields.map((field) => (field === ENUM_SET_ELEMENTS ? elements : undefined));
  } else if (t.kind === "class" && t.name === def.name && t.fields !== undefined) {
    const declared = t.fields;
    types = def.fields.map((field) => (Object.hasOwn(declared, field) ? declared[field] : undefined));
  } else {
    return undefined;
  }
  def.typedFor = t;
  def.fieldTypes = types;
  return types;
}

/** The JS Set an EnumSet stands for, from its fields as read (unchanged when they are not as expected). */
export function enumSetOf(fields: Record<string, unknown>): unknown {
  const elements = fields[ENUM_SET_ELEMENTS];
  return Array.isArray(elements) ? new Set(elements) : fields;
}
