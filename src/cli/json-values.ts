// JSON on the command line, values of Java types in between: arguments typed by a contract become
// the values its types take (a Date for java.util.Date, a Set for java.util.Set, a bigint for
// java.longBig), and results print as JSON (Maps as objects, Sets as arrays, bigints exact).
import type { JavaType } from "../core/index.js";

/** Java time types whose TypeScript value is a Date (the others travel as strings). */
const DATE_TIMES = new Set(["java.time.LocalDate", "java.time.LocalDateTime", "java.time.Instant"]);

/** `value` (parsed JSON) as a value of `type`; what does not fit is left for the call to refuse. */
export function fromJson(value: unknown, type: JavaType): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case "date":
      return typeof value === "string" || typeof value === "number" ? new Date(value) : value;
    case "time":
      return DATE_TIMES.has(type.name) && (typeof value === "string" || typeof value === "number")
        ? new Date(value)
        : value;
    case "long":
      return type.longAs === "bigint" && (typeof value === "string" || typeof value === "number")
        ? BigInt(value)
        : value;
    case "biginteger":
      return typeof value === "string" || typeof value === "number" ? BigInt(value) : value;
    case "bigdecimal":
      return typeof value === "number" ? String(value) : value;
    case "bytes":
      return Array.isArray(value) ? Uint8Array.from(value as number[]) : value;
    case "list":
    case "array":
      return Array.isArray(value) ? value.map((v) => fromJson(v, type.element!)) : value;
    case "set":
      return Array.isArray(value) ? new Set(value.map((v) => fromJson(v, type.element!))) : value;
    case "map":
      return isPlainObject(value)
        ? new Map(Object.entries(value).map(([k, v]) => [fromJson(k, type.key!), fromJson(v, type.value!)]))
        : value;
    case "class":
      return isPlainObject(value) ? classFromJson(value, type.fields ?? {}) : value;
    default:
      return value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function classFromJson(value: Record<string, unknown>, fields: Readonly<Record<string, JavaType>>): unknown {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const declared = fields[name];
    out[name] = declared === undefined ? field : fromJson(field, declared);
  }
  return out;
}

/** A result as JSON text: Maps as objects, Sets and byte arrays as arrays, bigints as numbers when exact. */
export function toJsonText(value: unknown, indent?: number): string {
  return (
    JSON.stringify(
      value,
      (_key, v: unknown) => {
        if (v instanceof Map) return Object.fromEntries([...v].map(([k, e]) => [String(k), e]));
        if (v instanceof Set) return [...v];
        if (v instanceof Uint8Array) return [...v];
        if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
        return v;
      },
      indent,
    ) ?? "null"
  );
}
