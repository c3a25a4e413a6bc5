import { Code, RpcError } from "../core/index.js";
import { closestName } from "./suggest.js";

/** Keys that could reach an object's prototype; refused anywhere in a configuration tree. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** `a.b` path segments; ids and method names are kept as written. */
export function joinPath(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** How a bad value is shown in a message: strings quoted and shortened, secrets hidden. */
function describeValue(value: unknown, secret = false): string {
  if (secret) return "(hidden)";
  if (typeof value === "string") {
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "object") return "an object";
  if (typeof value === "function") return "a function";
  return String(value);
}

/** A setting with a value outside what it accepts. */
export function invalidSetting(path: string, value: unknown, expected: string, secret = false): RpcError {
  return new RpcError(
    `invalid setting ${path} = ${describeValue(value, secret)}: expected ${expected}`,
    Code.InvalidArgument,
  );
}

/** A key no setting of this section has, with the closest known name when there is one. */
export function unknownSetting(path: string, key: string, known: readonly string[]): RpcError {
  const guess = closestName(key, known);
  const hint = guess === undefined ? "" : ` (did you mean "${guess}"?)`;
  return new RpcError(
    `unknown setting ${path}${hint}; accepted here: ${[...known].sort().join(", ")}`,
    Code.InvalidArgument,
  );
}

/** Rejects `__proto__` and friends before any object is built from the key. */
export function assertSafeKey(key: string, path: string): void {
  if (FORBIDDEN_KEYS.has(key)) {
    throw new RpcError(
      `invalid key "${key}" at ${path === "" ? "the top level" : path}: __proto__, constructor and prototype are not accepted as setting names or ids`,
      Code.InvalidArgument,
    );
  }
}

/** A plain object (YAML mapping or object literal), not an array or null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Narrows a section to an object, naming the path when it is something else. */
export function readRecord(
  value: unknown,
  path: string,
  what = "a mapping of settings",
): Record<string, unknown> {
  if (!isRecord(value)) throw invalidSetting(path, value, what);
  return value;
}
