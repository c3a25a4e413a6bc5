/**
 * Whether a value is one the declared Java type can hold, in any JS shape the Hessian reader
 * decodes for that type or the writer accepts for it (so decoded requests and in-process calls
 * pass the same check). A provider runs it before calling the user's function, so a list sent
 * where `java.String` is declared never reaches it. Past its first few container nodes the walk
 * visits each shared node once per declared type, so a graph built from back-references
 * (`[x, ref x]` nested 40 deep) costs its size, not its expansion. It runs on every provider call,
 * so it allocates next to nothing for a value that fits: the path of a mismatch is put together on the way
 * back up, and the visit table is made only for values with many container nodes.
 */
import type { JavaType } from "./java-type.js";

/** What is wrong with one value: where (`args[0].tags[2]`) and what was expected. */
export interface JavaValueMismatch {
  readonly path: string;
  readonly expected: string;
  readonly actual: string;
}

/**
 * Container nodes walked before visits are recorded: a small value (most arguments) is walked
 * without a table, and however a graph shares nodes the unrecorded walk stays this short.
 */
const UNRECORDED_NODES = 32;

interface Walk {
  /** Container nodes walked so far. */
  nodes: number;
  /** The types each node was checked as, from the node after {@link UNRECORDED_NODES}. */
  visited: Map<object, JavaType[]> | undefined;
}

/** A record-like value (a POJO's JS form): a plain object or a class instance, not a collection, date or buffer. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Map) &&
    !(value instanceof Set) &&
    !(value instanceof Date) &&
    !ArrayBuffer.isView(value)
  );
}

/** A short, bounded description of a value's JS shape (never renders its content). */
export function shapeOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value instanceof Map) return `a map of ${value.size}`;
  if (value instanceof Set) return `a set of ${value.size}`;
  if (value instanceof Date) return "a Date";
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (value instanceof Error) return `an exception (${value.name})`;
  if (typeof value === "object") {
    const cls = (value as { $class?: unknown }).$class;
    return typeof cls === "string" ? `an object of ${cls}` : "an object";
  }
  if (typeof value === "string")
    return value.length <= 40 ? `the string ${JSON.stringify(value)}` : "a string";
  if (typeof value === "number")
    return Number.isInteger(value) ? `the number ${value}` : "a fractional number";
  return `a ${typeof value}`;
}

/** The first place where `value` cannot be a `type`, or undefined when it can. */
export function checkJavaValue(value: unknown, type: JavaType, path: string): JavaValueMismatch | undefined {
  const wrong = check(value, type, { nodes: 0, visited: undefined });
  return wrong === undefined ? undefined : under(path, wrong);
}

/** A mismatch found at the value itself: its path is filled in by the containers above it. */
function fail(type: JavaType, value: unknown, expected = type.name): JavaValueMismatch {
  return { path: "", expected, actual: shapeOf(value) };
}

/** `wrong`, found inside the element or field `step` names. */
function under(step: string, wrong: JavaValueMismatch): JavaValueMismatch {
  return { ...wrong, path: step + wrong.path };
}

function integralIn(value: unknown, min: number, max: number): boolean {
  if (typeof value === "bigint") return value >= BigInt(min) && value <= BigInt(max);
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/** True when this node was already checked as this type (shared references are checked once). */
function seen(walk: Walk, node: object, type: JavaType): boolean {
  if (walk.visited === undefined) {
    if (++walk.nodes <= UNRECORDED_NODES) return false;
    walk.visited = new Map();
  }
  const visited = walk.visited;
  const types = visited.get(node);
  if (types === undefined) {
    visited.set(node, [type]);
    return false;
  }
  if (types.includes(type)) return true;
  types.push(type);
  return false;
}

function check(value: unknown, type: JavaType, walk: Walk): JavaValueMismatch | undefined {
  if (value === null || value === undefined) return type.primitive ? fail(type, value) : undefined;
  switch (type.kind) {
    case "object":
    case "void":
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : fail(type, value);
    case "byte":
      return integralIn(value, -128, 127) ? undefined : fail(type, value);
    case "short":
      return integralIn(value, -32768, 32767) ? undefined : fail(type, value);
    case "int":
      return integralIn(value, -2147483648, 2147483647) ? undefined : fail(type, value);
    case "long":
      return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value))
        ? undefined
        : fail(type, value);
    case "float":
    case "double":
      return typeof value === "number" ? undefined : fail(type, value);
    case "char":
      return typeof value === "string" && value.length === 1
        ? undefined
        : fail(type, value, `${type.name} (one character)`);
    case "string":
      return typeof value === "string" ? undefined : fail(type, value);
    case "date":
      return value instanceof Date || typeof value === "number" ? undefined : fail(type, value);
    case "bigdecimal":
      return typeof value === "string" || typeof value === "number" || typeof value === "bigint"
        ? undefined
        : fail(type, value, `${type.name} (decimal text)`);
    case "biginteger":
      return typeof value === "bigint" || typeof value === "number" || typeof value === "string"
        ? undefined
        : fail(type, value);
    case "bytes":
      return value instanceof Uint8Array ? undefined : fail(type, value);
    case "time":
      return value instanceof Date || typeof value === "string" || typeof value === "number"
        ? undefined
        : fail(type, value);
    case "enum":
      return checkEnum(value, type);
    case "list":
    case "set":
    case "array":
      return checkElements(value, type, walk);
    case "map":
      return checkMap(value, type, walk);
    case "class":
      return checkFields(value, type, walk);
  }
}

function checkEnum(value: unknown, type: JavaType): JavaValueMismatch | undefined {
  const name =
    typeof value === "string"
      ? value
      : typeof value === "object" && value !== null
        ? (value as { name?: unknown }).name
        : undefined;
  if (typeof name !== "string") return fail(type, value, `enum ${type.name}`);
  if (type.constants !== undefined && !type.constants.includes(name)) {
    return fail(type, value, `enum ${type.name} (one of ${type.constants.join(", ")})`);
  }
  return undefined;
}

function checkElements(value: unknown, type: JavaType, walk: Walk): JavaValueMismatch | undefined {
  const element = type.element;
  if (type.kind === "array" && element?.primitive && (element.kind === "byte" || element.kind === "char")) {
    // byte[] travels as binary and char[] as a string.
    const ok =
      element.kind === "byte"
        ? value instanceof Uint8Array || Array.isArray(value)
        : typeof value === "string" || Array.isArray(value);
    return ok ? undefined : fail(type, value);
  }
  if (!Array.isArray(value) && !(value instanceof Set)) return fail(type, value, `${type.name} (a list)`);
  if (element === undefined || element.kind === "object" || seen(walk, value, type)) return undefined;
  let i = 0;
  for (const item of value) {
    const wrong = check(item, element, walk);
    if (wrong !== undefined) return under(`[${i}]`, wrong);
    i++;
  }
  return undefined;
}

function checkMap(value: unknown, type: JavaType, walk: Walk): JavaValueMismatch | undefined {
  if (!(value instanceof Map) && !isRecord(value)) return fail(type, value, `${type.name} (a map)`);
  const keyType = type.key?.kind === "object" ? undefined : type.key;
  const valueType = type.value?.kind === "object" ? undefined : type.value;
  if ((keyType === undefined && valueType === undefined) || seen(walk, value, type)) return undefined;
  if (!(value instanceof Map)) {
    // A plain object's keys are strings; the writer converts integral ones for integral key types.
    if (valueType === undefined) return undefined;
    for (const key of Object.keys(value)) {
      const wrong = check(value[key], valueType, walk);
      if (wrong !== undefined) return under(`.${key}`, wrong);
    }
    return undefined;
  }
  let i = 0;
  for (const [key, item] of value) {
    const wrongKey = keyType === undefined ? undefined : check(key, keyType, walk);
    if (wrongKey !== undefined) return under(`[entry ${i}].key`, wrongKey);
    const wrongValue = valueType === undefined ? undefined : check(item, valueType, walk);
    if (wrongValue !== undefined) return under(`[entry ${i}].value`, wrongValue);
    i++;
  }
  return undefined;
}

function checkFields(value: unknown, type: JavaType, walk: Walk): JavaValueMismatch | undefined {
  if (!isRecord(value) || value instanceof Error) return fail(type, value, `an object of ${type.name}`);
  const fields = type.fields;
  if (fields === undefined || seen(walk, value, type)) return undefined;
  for (const name in fields) {
    const field = value[name];
    // An absent field is the Java default (the peer's class may lack it); a present one must fit.
    if (field === undefined || field === null) continue;
    const wrong = check(field, fields[name]!, walk);
    if (wrong !== undefined) return under(`.${name}`, wrong);
  }
  return undefined;
}
