import { boundedMemo } from "../../core/index.js";

/**
 * How a decoded Java object looks in JS: a plain object whose prototype carries its Java class
 * name as a non-enumerable `$class`. Reading `obj.$class` works; Object.keys, JSON.stringify and
 * spread see only the fields. One shared prototype per class name means one hidden class per
 * Java class (fast decode, monomorphic readers) and no per-object defineProperty.
 */

const CLASS_KEY = "$class";

/** Prototypes are shared per class name up to this many names, so hostile input cannot grow the cache forever. */
const MAX_SHARED_PROTOTYPES = 4096;

function createPrototype(className: string): object {
  return Object.create(Object.prototype, {
    [CLASS_KEY]: { value: className, enumerable: false, writable: true, configurable: true },
    // Own `constructor` so util.inspect prints the object as a plain `{ … }`.
    constructor: { value: Object, enumerable: false, writable: true, configurable: true },
  }) as object;
}

/**
 * The prototype of decoded objects of `className`: the same object for the same name (so
 * `deepStrictEqual` holds between two decodes), except past the cache limit, where each call
 * returns a fresh one.
 */
export const javaPrototype: (className: string) => object = boundedMemo(
  MAX_SHARED_PROTOTYPES,
  createPrototype,
);

/** Stores a field as an own data property: `__proto__` never reaches the prototype setter. */
export function setField(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === "__proto__") {
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[name] = value;
  }
}

/**
 * Builds a value shaped exactly like a decoded Java object of `className` (same prototype), e.g.
 * to send an untyped bean, or to compare with `deepStrictEqual`. Fields are copied in their order.
 */
export function javaObject<T extends object>(className: string, fields?: T): T {
  const target = Object.create(javaPrototype(className)) as Record<string, unknown>;
  if (fields !== undefined) {
    for (const key of Object.keys(fields)) setField(target, key, (fields as Record<string, unknown>)[key]);
  }
  return target as T;
}

/** The Java class name a value carries (a decoded object, a typed list or map), or undefined. */
export function javaClassOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const cls = (value as { $class?: unknown }).$class;
  return typeof cls === "string" ? cls : undefined;
}

/** Names a collection's Java class with an own non-enumerable `$class` (arrays, Maps, Sets keep their own prototype). */
export function markClass(target: object, className: string): void {
  Object.defineProperty(target, CLASS_KEY, {
    value: className,
    enumerable: false,
    writable: true,
    configurable: true,
  });
}
