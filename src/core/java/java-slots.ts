/**
 * The Java type a decoded value had on the wire, kept beside it when its JS value alone would
 * re-encode as another Java type: a `Long` decoded to the number 5 would go back as an `Integer`,
 * a `Double` 2.0 as an `Integer`, a `BigDecimal` (a decimal string) as a `String`, a `LocalDate`
 * (a `Date`) as a `java.util.Date`. A primitive cannot carry a property, so the container holding
 * it does: an array, Set or Map by position (a Map's key i at 2i, its value at 2i + 1), an object
 * by field name. The record is a non-enumerable symbol property, invisible to `Object.keys`,
 * `JSON.stringify`, spread and `deepStrictEqual`.
 */
import type { JavaType } from "./java-type.js";

/** Position in an array, Set or Map (entry i: key 2i, value 2i + 1), or an object's field name. */
export type SlotKey = number | string;
export type SlotTypes = ReadonlyMap<SlotKey, JavaType>;

const SLOTS: unique symbol = Symbol("dubbo-ts.javaSlotTypes");

interface Carrier {
  [SLOTS]?: Map<SlotKey, JavaType>;
}

/** The slot types a container carries, or undefined (the common case) when it carries none. */
export function slotTypesOf(container: object): SlotTypes | undefined {
  return (container as Carrier)[SLOTS];
}

/** The Java type recorded for one slot of a container. */
export function slotTypeOf(container: object, key: SlotKey): JavaType | undefined {
  return (container as Carrier)[SLOTS]?.get(key);
}

/**
 * The Java type recorded for a slot of `values` holding exactly `value` (`Object.is`), when that
 * value still fits it: what a function returned by passing an argument through (its JS value alone
 * would lose the type).
 */
export function slotTypeOfValue(values: readonly unknown[], value: unknown): JavaType | undefined {
  const slots = (values as Carrier)[SLOTS];
  if (slots === undefined) return undefined;
  for (const [key, type] of slots) {
    if (typeof key === "number" && Object.is(values[key], value) && fitsSlotType(value, type)) return type;
  }
  return undefined;
}

/**
 * The type to write `values[index]` as: its declared type, or, where that is absent or Object, the
 * Java type the slot recorded when it was decoded, while the value still fits it.
 */
export function slotWriteType(
  values: readonly unknown[],
  index: number,
  declared: JavaType | undefined,
): JavaType | undefined {
  if (declared !== undefined && declared.kind !== "object") return declared;
  const recorded = slotTypeOf(values, index);
  return recorded !== undefined && fitsSlotType(values[index], recorded) ? recorded : declared;
}

/** Records the Java type of one slot. */
export function setSlotType(container: object, key: SlotKey, type: JavaType): void {
  let slots = (container as Carrier)[SLOTS];
  if (slots === undefined) {
    if (!Object.isExtensible(container)) return;
    slots = new Map();
    Object.defineProperty(container, SLOTS, { value: slots, enumerable: false, configurable: true });
  }
  slots.set(key, type);
}

/** Gives a copy of a container the slot types of the original (a generic call's converted values). */
export function copySlotTypes(from: object, to: object): void {
  const slots = (from as Carrier)[SLOTS];
  if (slots !== undefined) for (const [key, type] of slots) setSlotType(to, key, type);
}

const MAX_EXACT_LONG = 2 ** 53;

/**
 * Whether `value` still has the JS shape a slot of this Java type decodes to, so the slot type
 * applies when it is written again (a slot whose value was replaced by another shape is ignored).
 */
export function fitsSlotType(value: unknown, type: JavaType): boolean {
  switch (type.kind) {
    case "long":
      return (
        typeof value === "bigint" ||
        (typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= MAX_EXACT_LONG)
      );
    case "double":
      return typeof value === "number";
    case "bigdecimal":
      return typeof value === "string";
    case "biginteger":
      return typeof value === "bigint";
    case "time":
      return typeof value === "string" || value instanceof Date;
    default:
      return false;
  }
}
