import type { ExtensionPoint } from "../../core/index.js";
import type { Merger } from "./merger.js";

type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

function isTypedArray(value: unknown): value is TypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  return (value as object).constructor?.name ?? "object";
}

function present(results: readonly unknown[]): unknown[] {
  return results.filter((r) => r !== null && r !== undefined);
}

/**
 * Java's array mergers (`int`, `long`, …, `boolean`, `char` and object arrays): concatenation in
 * group order, null results skipped. Typed arrays of one kind stay that kind (`byte[]` as
 * Uint8Array); anything else becomes a plain array.
 */
export function concatArrays(results: readonly unknown[]): unknown[] | TypedArray {
  const items = present(results);
  for (const item of items) {
    if (!Array.isArray(item) && !isTypedArray(item)) {
      throw new TypeError(`cannot merge a ${describe(item)} as an array (expected arrays from every group)`);
    }
  }
  const first = items[0];
  if (isTypedArray(first) && items.every((i) => (i as object).constructor === first.constructor)) {
    const typed = items as TypedArray[];
    const total = typed.reduce((n, t) => n + t.length, 0);
    const Ctor = first.constructor as new (length: number) => TypedArray;
    const out = new Ctor(total);
    let offset = 0;
    for (const t of typed) {
      (out as unknown as { set(source: ArrayLike<unknown>, offset: number): void }).set(t, offset);
      offset += t.length;
    }
    return out;
  }
  const out: unknown[] = [];
  for (const item of items) {
    const list = item as ArrayLike<unknown>;
    for (let i = 0; i < list.length; i++) out.push(list[i]);
  }
  return out;
}

/** Java's `ListMerger`: every group's elements, in order (null results skipped). */
export const listMerger: Merger = {
  merge(results) {
    const out: unknown[] = [];
    for (const item of present(results)) {
      if (typeof item === "string" || !(Symbol.iterator in Object(item))) {
        throw new TypeError(
          `cannot merge a ${describe(item)} as a list (expected an array from every group)`,
        );
      }
      for (const element of item as Iterable<unknown>) out.push(element);
    }
    return out;
  },
};

/** Java's `SetMerger`: the union, first occurrence first. */
export const setMerger: Merger = {
  merge(results) {
    const out = new Set<unknown>();
    for (const item of present(results)) {
      if (!(item instanceof Set) && !Array.isArray(item)) {
        throw new TypeError(`cannot merge a ${describe(item)} as a set (expected a Set from every group)`);
      }
      for (const element of item) out.add(element);
    }
    return out;
  },
};

/**
 * Java's `MapMerger`: every group's entries, a later group overwriting an earlier one's key
 * (`putAll`). Maps give a Map; plain objects (maps decoded as records) give a plain object.
 */
export const mapMerger: Merger = {
  merge(results) {
    const items = present(results);
    for (const item of items) {
      if (typeof item !== "object" || Array.isArray(item)) {
        throw new TypeError(
          `cannot merge a ${describe(item)} as a map (expected a Map or an object from every group)`,
        );
      }
    }
    if (items.some((i) => i instanceof Map)) {
      const out = new Map<unknown, unknown>();
      for (const item of items) {
        const entries = item instanceof Map ? item.entries() : Object.entries(item as object);
        for (const [k, v] of entries) out.set(k, v);
      }
      return out;
    }
    return Object.assign({}, ...items) as Record<string, unknown>;
  },
};

/** Object arrays (`String[]`, `User[]`): Java's `ArrayMerger`, used by return type only. */
export const arrayMerger: Merger = { merge: concatArrays };

/** Java's merger names (`META-INF/dubbo/internal/...Merger`): primitive arrays concatenate. */
const PRIMITIVE_ARRAY_NAMES = ["byte", "char", "short", "int", "long", "float", "double", "boolean"] as const;

/**
 * Registers Java's built-in mergers by their names: `list`, `set`, `map`, and `byte`, `char`,
 * `short`, `int`, `long`, `float`, `double`, `boolean` (arrays of those, concatenated).
 */
export function registerBuiltinMergers(point: ExtensionPoint<Merger>): void {
  point.register("list", listMerger);
  point.register("set", setMerger);
  point.register("map", mapMerger);
  for (const name of PRIMITIVE_ARRAY_NAMES) point.register(name, arrayMerger);
}
