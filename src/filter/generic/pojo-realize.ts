import type { JavaType } from "../../core/index.js";
import {
  CLASS_KEY,
  describe,
  entriesOf,
  isRecord,
  JAVA_OBJECT,
  PojoConversionError,
  readKey,
} from "./pojo-shape.js";

type Seen = Map<object, unknown>;

/**
 * Converts a generic argument (Dubbo PojoUtils form: POJOs as maps with a `class` key, collections
 * as arrays, numbers possibly as strings) into a value of the contract's Java type, as Java's
 * `PojoUtils.realize` does. Throws a {@link PojoConversionError} naming the path of a value that
 * cannot be converted. Shared references and cycles are preserved.
 */
export function realize(value: unknown, type: JavaType, path: string): unknown {
  return realizeValue(value, type, path, new Map());
}

function realizeValue(value: unknown, type: JavaType, path: string, seen: Seen): unknown {
  if (value === null || value === undefined) {
    if (type.primitive)
      throw new PojoConversionError(path, `is ${String(value)} but the parameter is ${type.name}`);
    return value ?? null;
  }
  switch (type.kind) {
    case "boolean":
      if (typeof value === "boolean") return value;
      if (value === "true" || value === "false") return value === "true";
      break;
    case "byte":
    case "short":
    case "int":
    case "float":
    case "double":
      return toNumber(value, type, path);
    case "long":
      return toLong(value, type, path);
    case "char":
    case "string":
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
        return String(value);
      break;
    case "date":
      return toDate(value, path);
    case "bigdecimal":
      if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return value;
      if (typeof value === "number" && Number.isFinite(value)) return String(value);
      if (typeof value === "bigint") return String(value);
      break;
    case "biginteger":
      return toBigInt(value, path);
    case "bytes":
      if (value instanceof Uint8Array) return value;
      if (Array.isArray(value) && value.every((b) => Number.isInteger(b)))
        return Uint8Array.from(value as number[]);
      break;
    case "list":
    case "array":
      return realizeList(value, type, path, seen);
    case "set": {
      const items = realizeList(value, type, path, seen);
      return new Set(items);
    }
    case "map":
      return realizeMap(value, type, path, seen);
    case "class":
      return realizeClass(value, type, path, seen);
    case "enum":
      return realizeEnum(value, type, path);
    case "object":
      return realizeObject(value, type, seen);
    case "void":
      return undefined;
    case "time":
      return value;
  }
  throw new PojoConversionError(path, `cannot convert ${describe(value)} to ${type.name}`);
}

function toNumber(value: unknown, type: JavaType, path: string): number {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "bigint"
        ? Number(value)
        : typeof value === "string" && value.trim() !== ""
          ? Number(value)
          : Number.NaN;
  const integral = type.kind !== "float" && type.kind !== "double";
  if (Number.isNaN(n) || (integral && !Number.isInteger(n))) {
    throw new PojoConversionError(path, `cannot convert ${describe(value)} to ${type.name}`);
  }
  return n;
}

function toLong(value: unknown, type: JavaType, path: string): number | bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) {
    const big = BigInt(value.trim());
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(big)
      : big;
  }
  throw new PojoConversionError(path, `cannot convert ${describe(value)} to ${type.name}`);
}

function toBigInt(value: unknown, path: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  throw new PojoConversionError(path, `cannot convert ${describe(value)} to java.math.BigInteger`);
}

function toDate(value: unknown, path: string): Date {
  const date =
    value instanceof Date
      ? value
      : typeof value === "number" || typeof value === "string"
        ? new Date(value)
        : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new PojoConversionError(path, `cannot convert ${describe(value)} to java.util.Date`);
  }
  return date;
}

function realizeList(value: unknown, type: JavaType, path: string, seen: Seen): unknown[] {
  if (!Array.isArray(value) && !(value instanceof Set)) {
    throw new PojoConversionError(path, `expected an array for ${type.name}, got ${describe(value)}`);
  }
  const done = seen.get(value);
  if (Array.isArray(done)) return done;
  const out: unknown[] = [];
  seen.set(value, out);
  let i = 0;
  for (const item of value) {
    out.push(type.element === undefined ? item : realizeValue(item, type.element, `${path}[${i}]`, seen));
    i++;
  }
  return out;
}

function realizeMap(value: unknown, type: JavaType, path: string, seen: Seen): Map<unknown, unknown> {
  if (!(value instanceof Map) && !isRecord(value)) {
    throw new PojoConversionError(path, `expected a map for ${type.name}, got ${describe(value)}`);
  }
  const done = seen.get(value);
  if (done instanceof Map) return done;
  const out = new Map<unknown, unknown>();
  seen.set(value, out);
  for (const [k, v] of entriesOf(value)) {
    const key = type.key === undefined ? k : realizeValue(k, type.key, `${path}.<key ${String(k)}>`, seen);
    out.set(key, type.value === undefined ? v : realizeValue(v, type.value, `${path}[${String(k)}]`, seen));
  }
  return out;
}

function realizeClass(value: unknown, type: JavaType, path: string, seen: Seen): Record<string, unknown> {
  if (!(value instanceof Map) && !isRecord(value)) {
    throw new PojoConversionError(
      path,
      `expected a map with the fields of ${type.name} (and "class": "${type.name}"), got ${describe(value)}`,
    );
  }
  const done = seen.get(value);
  if (done !== undefined) return done as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [field, fieldType] of Object.entries(type.fields ?? {})) {
    const v = readKey(value, field);
    if (v !== undefined) out[field] = realizeValue(v, fieldType, `${path}.${field}`, seen);
  }
  return out;
}

function realizeEnum(value: unknown, type: JavaType, path: string): string {
  const name = typeof value === "string" ? value : isRecord(value) ? value.name : undefined;
  if (typeof name !== "string" || (type.constants !== undefined && !type.constants.includes(name))) {
    const allowed = type.constants === undefined ? "" : ` (constants: ${type.constants.join(", ")})`;
    throw new PojoConversionError(path, `cannot convert ${describe(value)} to enum ${type.name}${allowed}`);
  }
  return name;
}

/** A class the contract does not describe: drop the `class` marker of a POJO map, keep the rest. */
function realizeObject(value: unknown, type: JavaType, seen: Seen): unknown {
  if (type.name === JAVA_OBJECT || (!(value instanceof Map) && !isRecord(value))) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [k, v] of entriesOf(value)) if (k !== CLASS_KEY) out[String(k)] = v;
  return out;
}
