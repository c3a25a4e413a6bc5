import { Code, RpcError } from "../core/index.js";
import { assertSafeKey, invalidSetting, joinPath, readRecord, unknownSetting } from "./errors.js";
import type { ExtensionName, ExtensionPointName } from "./extension-name-types.js";

/**
 * How one setting is read and where it goes. `read` receives a present value of unknown type
 * (object literal, YAML, or an environment string when `fromText` is set) and returns it narrowed,
 * or throws an `RpcError` naming `path`, the value and what is accepted.
 */
export interface FieldSpec<T> {
  read(value: unknown, path: string, fromText: boolean): T;
  /** Other names accepted for the setting: Dubbo's own (`timeout` for `timeoutMs`) first. */
  readonly aliases?: readonly string[];
  /** The URL parameter the setting becomes; absent for settings that never reach a URL. */
  readonly urlKey?: string;
  /** Formats the value for the URL; `undefined` leaves the parameter off. Default: `String`/join. */
  urlValue?(value: T): string | undefined;
  /** The extension point a name-valued setting selects from. */
  readonly extension?: ExtensionPointName;
}

type Meta = Omit<FieldSpec<never>, "read" | "urlValue">;

/** One spec per optional setting of `S`, typed so the table cannot drift from the interface. */
export type FieldTable<S> = { readonly [K in keyof S]-?: FieldSpec<Exclude<S[K], undefined>> };

/** The settings a user actually gave, validated; absent keys inherit from the layer above. */
export type Given<S> = { [K in keyof S]?: Exclude<S[K], undefined> };

/** Java's `int` range, which every count and duration must fit on the Java side. */
export const JAVA_INT_MAX = 2_147_483_647;

export function integerField(min: number, max: number, unit: string, meta: Meta = {}): FieldSpec<number> {
  const expected = `an integer from ${min} to ${max}${unit === "" ? "" : ` (${unit})`}`;
  return {
    ...meta,
    read(value, path, fromText) {
      const n =
        fromText && typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;
      if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
        throw invalidSetting(path, value, expected);
      }
      return n;
    },
  };
}

export function booleanField(meta: Meta = {}): FieldSpec<boolean> {
  return {
    ...meta,
    read(value, path, fromText) {
      if (typeof value === "boolean") return value;
      if (fromText && typeof value === "string") {
        const text = value.trim().toLowerCase();
        if (text === "true" || text === "false") return text === "true";
      }
      throw invalidSetting(path, value, "true or false");
    },
  };
}

/** A non-empty string; with `numbersAsText`, integers too (YAML reads `version: 2` as a number). */
export function textField(
  meta: Meta & { secret?: boolean; numbersAsText?: boolean } = {},
): FieldSpec<string> {
  const { secret = false, numbersAsText = false, ...rest } = meta;
  return {
    ...rest,
    read(value, path) {
      if (numbersAsText && typeof value === "number" && Number.isSafeInteger(value)) return String(value);
      if (typeof value !== "string" || value.trim() === "") {
        throw invalidSetting(path, value, "a non-empty string", secret);
      }
      return value.trim();
    },
  };
}

/** One of a closed set of words. */
export function choiceField<const T extends string>(choices: readonly T[], meta: Meta = {}): FieldSpec<T> {
  const expected = `one of ${choices.map((c) => `"${c}"`).join(", ")}`;
  return {
    ...meta,
    read(value, path) {
      const found = choices.find((c) => c === value);
      if (found === undefined) throw invalidSetting(path, value, expected);
      return found;
    },
  };
}

const EXTENSION_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * A name-valued setting. Its type is the point's known names (so code cannot misspell one); the
 * value itself is only checked for shape here, and against the registered names at start.
 */
export function extensionField<P extends ExtensionPointName>(
  point: P,
  meta: Meta = {},
): FieldSpec<ExtensionName<P>> {
  return {
    ...meta,
    extension: point,
    read(value, path) {
      if (typeof value !== "string" || !EXTENSION_NAME.test(value.trim())) {
        throw invalidSetting(path, value, `a ${point} extension name (letters, digits, "-", "_", ".")`);
      }
      return value.trim() as ExtensionName<P>;
    },
  };
}

/**
 * A list of words, as an array or a comma-separated string; empty items are dropped. `T` narrows
 * the type code may give (filter names); the app checks names against its registry at start.
 */
export function listField<T extends string = string>(
  meta: Meta & { itemPattern?: RegExp } = {},
): FieldSpec<readonly T[]> {
  const { itemPattern, ...rest } = meta;
  const expected = "a list of names (an array of strings or one comma-separated string)";
  return {
    ...rest,
    urlValue: (items) => (items.length === 0 ? undefined : items.join(",")),
    read(value, path) {
      const items = typeof value === "string" ? value.split(",") : value;
      if (!Array.isArray(items) || !items.every((item) => typeof item === "string")) {
        throw invalidSetting(path, value, expected);
      }
      const names = items.map((item) => item.trim()).filter((item) => item !== "");
      const bad = itemPattern === undefined ? undefined : names.find((n) => !itemPattern.test(n));
      if (bad !== undefined) throw invalidSetting(path, bad, `${expected} matching ${String(itemPattern)}`);
      return Object.freeze(names) as readonly T[];
    },
  };
}

/** Free-form extra URL parameters (Java's `parameters`): string keys, scalar values. */
export function parametersField(): FieldSpec<Readonly<Record<string, string>>> {
  return {
    read(value, path) {
      const record = readRecord(value, path, "a mapping of URL parameter names to values");
      const out: Record<string, string> = {};
      for (const [key, raw] of Object.entries(record)) {
        assertSafeKey(key, path);
        const at = joinPath(path, key);
        if (!/^[A-Za-z0-9_.-]+$/.test(key))
          throw invalidSetting(at, key, "a parameter name of letters, digits, '-', '_', '.'");
        if (typeof raw !== "string" && typeof raw !== "number" && typeof raw !== "boolean") {
          throw invalidSetting(at, raw, "a string, number or boolean");
        }
        const text = String(raw);
        // A raw `&`, `=` or `;` would split the parameter when Java parses the registered URL.
        if (/[&=;]/.test(text)) throw invalidSetting(at, raw, "a value without '&', '=' or ';'");
        out[key] = text;
      }
      return Object.freeze(out);
    },
  };
}

const indexes = new WeakMap<object, ReadonlyMap<string, string>>();

/** Every accepted input name (field names and aliases) → field name, built once per table. */
function nameIndex<S>(table: FieldTable<S>): ReadonlyMap<string, string> {
  let index = indexes.get(table);
  if (index === undefined) {
    const built = new Map<string, string>();
    for (const [field, spec] of Object.entries<FieldSpec<unknown>>(table)) {
      built.set(field, field);
      for (const alias of spec.aliases ?? []) built.set(alias, field);
    }
    index = built;
    indexes.set(table, index);
  }
  return index;
}

/** The accepted input names of a table (for environment variables and error messages). */
export function acceptedNames<S>(table: FieldTable<S>): readonly string[] {
  return [...nameIndex(table).keys()];
}

/** Resolves an input name (field or alias) to the field it sets. */
export function fieldFor<S>(table: FieldTable<S>, name: string): (keyof S & string) | undefined {
  return fieldNames(table).find((field) => field === nameIndex(table).get(name));
}

function fieldNames<S>(table: FieldTable<S>): ReadonlyArray<keyof S & string> {
  return Object.keys(table).filter((k): k is keyof S & string => Object.hasOwn(table, k));
}

export interface ReadOptions {
  /** Environment strings: numbers and booleans arrive as text. */
  readonly fromText?: boolean;
  /** Keys the caller reads itself (`methods`, `definition`, ...), skipped here. */
  readonly structural?: readonly string[];
}

/**
 * Reads the settings of one section: every key must be a field, an alias or a structural key;
 * each value is narrowed by its spec. `undefined` and YAML `null` mean "not set".
 */
export function readFields<S>(
  table: FieldTable<S>,
  input: Record<string, unknown>,
  path: string,
  options: ReadOptions = {},
): Given<S> {
  const structural = options.structural ?? [];
  const fields = fieldNames(table);
  const index = nameIndex(table);
  const given: Given<S> = {};
  const setBy = new Map<string, string>();
  for (const [key, value] of Object.entries(input)) {
    assertSafeKey(key, path);
    if (structural.includes(key)) continue;
    const fieldName = index.get(key);
    const field = fields.find((f) => f === fieldName);
    if (field === undefined) throw unknownSetting(joinPath(path, key), key, [...index.keys(), ...structural]);
    if (value === undefined || value === null) continue;
    const earlier = setBy.get(field);
    if (earlier !== undefined) {
      throw new RpcError(
        `${joinPath(path, earlier)} and ${joinPath(path, key)} are the same setting; keep one of them`,
        Code.InvalidArgument,
      );
    }
    setBy.set(field, key);
    setGiven(given, field, table[field].read(value, joinPath(path, key), options.fromText === true));
  }
  return given;
}

function setGiven<S, K extends keyof S>(given: Given<S>, key: K, value: Exclude<S[K], undefined>): void {
  given[key] = value;
}

/** The URL parameters of the given settings, `prefix` for method-level keys (`sayHello.`). */
export function givenToParams<S>(
  table: FieldTable<S>,
  given: Given<S>,
  prefix = "",
  out: Record<string, string> = {},
): Record<string, string> {
  for (const field of fieldNames(table)) {
    const value = given[field];
    const spec = table[field];
    if (value === undefined || spec.urlKey === undefined) continue;
    const text = spec.urlValue === undefined ? String(value) : spec.urlValue(value);
    if (text !== undefined) out[`${prefix}${spec.urlKey}`] = text;
  }
  return out;
}
