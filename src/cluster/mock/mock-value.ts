import type { JavaType } from "../../core/index.js";

/** What a `mock` setting asks for, parsed once per method. */
export type MockAction =
  | { readonly kind: "return"; readonly text: string }
  | { readonly kind: "throw"; readonly javaClass: string | undefined }
  /** A mock implementation: `default` for the interface's own, or a given name. */
  | { readonly kind: "implementation"; readonly name: string };

export interface MockSetting {
  /** `force:` — never call the providers. */
  readonly force: boolean;
  readonly action: MockAction;
}

/**
 * Parses a `mock` value (already URL-decoded) as Java 2.7.23 does: the wrapper's test (empty or
 * `false` is no mock; a value starting with `force` never calls the providers), then
 * `MockInvoker.normalizeMock` (`return` alone is `return null`; `true`, `default`, `fail` and
 * `force` are the default mock implementation; a `fail:` prefix, then a `force:` prefix, is
 * stripped; backquotes stand for double quotes in `return`/`throw`), then the `return ` / `throw`
 * prefixes; anything else names a mock implementation (`default` for the interface's own).
 */
export function parseMockSetting(raw: string | undefined): MockSetting | undefined {
  const value = raw?.trim() ?? "";
  if (value === "" || value.toLowerCase() === "false") return undefined;
  const force = value.startsWith("force");
  const mock = normalizeMock(value);
  if (mock.startsWith(RETURN_PREFIX)) {
    return { force, action: { kind: "return", text: mock.slice(RETURN_PREFIX.length).trim() } };
  }
  if (mock.startsWith(THROW_PREFIX)) {
    const javaClass = mock.slice(THROW_PREFIX.length).trim();
    return { force, action: { kind: "throw", javaClass: javaClass === "" ? undefined : javaClass } };
  }
  return { force, action: { kind: "implementation", name: isDefaultMock(mock) ? "default" : mock } };
}

const RETURN_PREFIX = "return ";
const THROW_PREFIX = "throw";

/** Java's `ConfigUtils.isDefault`: `true` or `default`, any case. */
function isDefaultMock(value: string): boolean {
  const lower = value.toLowerCase();
  return lower === "true" || lower === "default";
}

/** Java's `MockInvoker.normalizeMock`, for a trimmed, non-empty value. */
function normalizeMock(value: string): string {
  const lower = value.toLowerCase();
  if (lower === "return") return `${RETURN_PREFIX}null`;
  if (isDefaultMock(value) || lower === "fail" || lower === "force") return "default";
  let mock = value;
  if (mock.startsWith("fail:")) mock = mock.slice("fail:".length).trim();
  if (mock.startsWith("force:")) mock = mock.slice("force:".length).trim();
  if (mock.startsWith(RETURN_PREFIX) || mock.startsWith(THROW_PREFIX)) mock = mock.replaceAll("`", '"');
  return mock;
}

/**
 * The value of `return <text>` for a method returning `returnType`, as Java's parseMockValue:
 * `empty` (the empty value of the type), `null`, `true`, `false`, a quoted string, the raw text for
 * a String method, numbers, JSON objects and arrays; otherwise the text itself.
 */
export function parseMockValue(text: string, returnType: JavaType | undefined): unknown {
  let value: unknown;
  if (text === "empty") return emptyValueOf(returnType);
  if (text === "null") value = null;
  else if (text === "true") value = true;
  else if (text === "false") value = false;
  else if (text.length >= 2 && /^(".*"|'.*')$/s.test(text)) value = text.slice(1, -1);
  else if (returnType?.kind === "string") value = text;
  else if (/^\d+$/.test(text)) value = Number(text);
  else if (text.startsWith("{") || text.startsWith("[")) value = JSON.parse(text);
  else value = text;
  return realize(value, returnType);
}

/** Fits a parsed value to the declared return type (numbers from text, Map/Set for objects/arrays). */
function realize(value: unknown, type: JavaType | undefined): unknown {
  if (type === undefined || value === null) return value;
  switch (type.kind) {
    case "int":
    case "short":
    case "byte":
    case "long":
    case "float":
    case "double":
      return typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))
        ? Number(value)
        : value;
    case "map":
      return isPlainObject(value) ? new Map(Object.entries(value)) : value;
    case "set":
      return Array.isArray(value) ? new Set(value) : value;
    default:
      return value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Java's ReflectUtils.getEmptyObject: 0, false, "", [], {}, empty Map/Set; null when unknown. */
export function emptyValueOf(type: JavaType | undefined, depth = 0): unknown {
  if (type === undefined) return null;
  switch (type.kind) {
    case "boolean":
      return false;
    case "byte":
    case "short":
    case "int":
    case "float":
    case "double":
      return 0;
    case "long":
      return 0;
    case "char":
      return "\0";
    case "string":
      return "";
    case "bytes":
      return new Uint8Array(0);
    case "list":
    case "array":
      return [];
    case "set":
      return new Set();
    case "map":
      return new Map();
    case "class": {
      if (depth >= 3) return null;
      const out: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(type.fields ?? {})) {
        out[name] = field.primitive ? emptyValueOf(field, depth + 1) : null;
      }
      return out;
    }
    case "object":
      return type.name.startsWith("java.") ? null : {};
    default:
      return null;
  }
}
