/**
 * Whether a value is one the declared Java type can hold, in any JS shape the Hessian reader
 * decodes for that type or the writer accepts for it (so decoded requests and in-process calls
 * pass the same check). A provider runs it before calling the user's function, so a list sent
 * where `java.String` is declared never reaches it. The walk visits each shared node once per
 * declared type, so a graph built from back-references (`[x, ref x]` nested 40 deep) costs its
 * size, not its expansion.
 */
import type { JavaType } from "./java-type.js";

/** What is wrong with one value: where (`args[0].tags[2]`) and what was expected. */
export interface JavaValueMismatch {
  readonly path: string;
  readonly expected: string;
  readonly actual: string;
}

type Visited = Map<object, JavaType[]>;

const NO_VISITS: Visited = new Map();

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
  // Scalar types never record visits: no map for them on the call path.
  const walks = type.element !== undefined || type.fields !== undefined || type.value !== undefined;
  return check(value, type, path, walks ? new Map() : NO_VISITS);
}

function fail(path: string, type: JavaType, value: unknown, expected = type.name): JavaValueMismatch {
  return { path, expected, actual: shapeOf(value) };
}

function integralIn(value: unknown, min: number, max: number): boolean {
  if (typeof value === "bigint") return value >= BigInt(min) && value <= BigInt(max);
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/** True when this node was already checked as this type (shared references are checked once). */
function seen(visited: Visited, node: object, type: JavaType): boolean {
  const types = visited.get(node);
  if (types === undefined) {
    visited.set(node, [type]);
    return false;
  }
  if (types.includes(type)) return true;
  types.push(type);
  return false;
}

function check(
  value: unknown,
  type: JavaType,
  path: string,
  visited: Visited,
): JavaValueMismatch | undefined {
  if (value === null || value === undefined) return type.primitive ? fail(path, type, value) : undefined;
  switch (type.kind) {
    case "object":
    case "void":
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : fail(path, type, value);
    case "byte":
      return integralIn(value, -128, 127) ? undefined : fail(path, type, value);
    case "short":
      return integralIn(value, -32768, 32767) ? undefined : fail(path, type, value);
    case "int":
      return integralIn(value, -2147483648, 2147483647) ? undefined : fail(path, type, value);
    case "long":
      return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value))
        ? undefined
        : fail(path, type, value);
    case "float":
    case "double":
      return typeof value === "number" ? undefined : fail(path, type, value);
    case "char":
      return typeof value === "string" && value.length === 1
        ? undefined
        : fail(path, type, value, `${type.name} (one character)`);
    case "string":
      return typeof value === "string" ? undefined : fail(path, type, value);
    case "date":
      return value instanceof Date || typeof value === "number" ? undefined : fail(path, type, value);
    case "bigdecimal":
      return typeof value === "string" || typeof value === "number" || typeof value === "bigint"
        ? undefined
        : fail(path, type, value, `${type.name} (decimal text)`);
    case "biginteger":
      return typeof value === "bigint" || typeof value === "number" || typeof value === "string"
        ? undefined
        : fail(path, type, value);
    case "bytes":
      return value instanceof Uint8Array ? undefined : fail(path, type, value);
    case "time":
      return value instanceof Date || typeof value === "string" || typeof value === "number"
        ? undefined
        : fail(path, type, value);
    case "enum":
      return checkEnum(value, type, path);
    case "list":
    case "set":
    case "array":
      return checkElements(value, type, path, visited);
    case "map":
      return checkMap(value, type, path, visited);
    case "class":
      return checkFields(value, type, path, visited);
  }
}

function checkEnum(value: unknown, type: JavaType, path: string): JavaValueMismatch | undefined {
  const name =
    typeof value === "string"
      ? value
      : typeof value === "object" && value !== null
        ? (value as { name?: unknown }).name
        : undefined;
  if (typeof name !== "string") return fail(path, type, value, `enum ${type.name}`);
  if (type.constants !== undefined && !type.constants.includes(name)) {
    return fail(path, type, value, `enum ${type.name} (one of ${type.constants.join(", ")})`);
  }
  return undefined;
}

function checkElements(
  value: unknown,
  type: JavaType,
  path: string,
  visited: Visited,
): JavaValueMismatch | undefined {
  const element = type.element;
  if (type.kind === "array" && element?.primitive && (element.kind === "byte" || element.kind === "char")) {
    // byte[] travels as binary and char[] as a string.
    const ok =
      element.kind === "byte"
        ? value instanceof Uint8Array || Array.isArray(value)
        : typeof value === "string" || Array.isArray(value);
    return ok ? undefined : fail(path, type, value);
  }
  if (!Array.isArray(value) && !(value instanceof Set))
    return fail(path, type, value, `${type.name} (a list)`);
  if (element === undefined || element.kind === "object" || seen(visited, value, type)) return undefined;
  let i = 0;
  for (const item of value) {
    const wrong = check(item, element, `${path}[${i}]`, visited);
    if (wrong !== undefined) return wrong;
    i++;
  }
  return undefined;
}

function checkMap(
  value: unknown,
  type: JavaType,
  path: string,
  visited: Visited,
): JavaValueMismatch | undefined {
  if (!(value instanceof Map) && !isRecord(value)) return fail(path, type, value, `${type.name} (a map)`);
  const keyType = type.key?.kind === "object" ? undefined : type.key;
  const valueType = type.value?.kind === "object" ? undefined : type.value;
  if ((keyType === undefined && valueType === undefined) || seen(visited, value, type)) return undefined;
  if (!(value instanceof Map)) {
    // A plain object's keys are strings; the writer converts integral ones for integral key types.
    if (valueType === undefined) return undefined;
    for (const key of Object.keys(value)) {
      const wrong = check(value[key], valueType, `${path}.${key}`, visited);
      if (wrong !== undefined) return wrong;
    }
    return undefined;
  }
  let i = 0;
  for (const [key, item] of value) {
    const at = `${path}[entry ${i}]`;
    const wrong =
      (keyType === undefined ? undefined : check(key, keyType, `${at}.key`, visited)) ??
      (valueType === undefined ? undefined : check(item, valueType, `${at}.value`, visited));
    if (wrong !== undefined) return wrong;
    i++;
  }
  return undefined;
}

function checkFields(
  value: unknown,
  type: JavaType,
  path: string,
  visited: Visited,
): JavaValueMismatch | undefined {
  if (!isRecord(value) || value instanceof Error) return fail(path, type, value, `an object of ${type.name}`);
  const fields = type.fields;
  if (fields === undefined || seen(visited, value, type)) return undefined;
  for (const name of Object.keys(fields)) {
    const field = value[name];
    // An absent field is the Java default (the peer's class may lack it); a present one must fit.
    if (field === undefined || field === null) continue;
    const wrong = check(field, fields[name]!, `${path}.${name}`, visited);
    if (wrong !== undefined) return wrong;
  }
  return undefined;
}
