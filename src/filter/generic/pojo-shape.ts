/** Value shapes shared by realize and generalize (Dubbo's PojoUtils conventions). */

/** The key that carries a POJO's Java class name in its map form. */
export const CLASS_KEY = "class";

/** Java's `java.lang.Object`: no conversion is possible or needed. */
export const JAVA_OBJECT = "java.lang.Object";

export { isRecord } from "../../core/index.js";

/** Reads one property of a map-form value, whether it arrived as a plain object or a `Map`. */
export function readKey(value: Record<string, unknown> | Map<unknown, unknown>, key: string): unknown {
  return value instanceof Map ? value.get(key) : value[key];
}

/** The entries of a map-form value, keys as given. */
export function entriesOf(
  value: Record<string, unknown> | Map<unknown, unknown>,
): Iterable<[unknown, unknown]> {
  return value instanceof Map ? value.entries() : Object.entries(value);
}

/** A conversion that cannot be made; `path` names the argument and field (`args[0].address.zip`). */
export class PojoConversionError extends TypeError {
  override name = "PojoConversionError";
  readonly path: string;

  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.path = path;
  }
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Map) return "a Map";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(typeof value === "bigint" ? String(value) : value)}`;
}
