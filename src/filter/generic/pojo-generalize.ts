import { copySlotTypes, fitsSlotType, type JavaType, setSlotType } from "../../core/index.js";
import { CLASS_KEY, isRecord, JAVA_OBJECT } from "./pojo-shape.js";

type Seen = Map<object, unknown>;

/**
 * Turns a provider's result into Dubbo's generic form (Java's `PojoUtils.generalize`), guided by the
 * contract's return type: POJOs become maps with a `class` key and their declared fields, collections
 * stay collections of generalized items, primitives, strings, dates and enums stay as they are, a
 * declared long, double, BigDecimal or time field keeping its Java type as the map's slot type.
 * Shared references and cycles are preserved.
 */
export function generalize(value: unknown, type: JavaType | undefined): unknown {
  return generalizeValue(value, type, new Map());
}

function generalizeValue(value: unknown, type: JavaType | undefined, seen: Seen): unknown {
  if (value === null || typeof value !== "object") return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    copySlotTypes(value, out);
    for (const item of value) out.push(generalizeValue(item, type?.element, seen));
    return out;
  }
  if (value instanceof Set) {
    const out = new Set<unknown>();
    seen.set(value, out);
    copySlotTypes(value, out);
    for (const item of value) out.add(generalizeValue(item, type?.element, seen));
    return out;
  }
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>();
    seen.set(value, out);
    copySlotTypes(value, out);
    for (const [k, v] of value)
      out.set(generalizeValue(k, type?.key, seen), generalizeValue(v, type?.value, seen));
    return out;
  }
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  // Fields keep their names, so an untyped Long field stays a Long in the map form.
  copySlotTypes(value, out);
  if (type?.kind === "class") {
    out[CLASS_KEY] = type.name;
    for (const [field, fieldType] of Object.entries(type.fields ?? {})) {
      const v = value[field];
      if (v === undefined) continue;
      out[field] = generalizeValue(v, fieldType, seen);
      // The map form has no declared types: a long field keeps its type as the map's slot, so it goes
      // out as a Long (Java's generalize keeps the boxed field value) rather than an Integer.
      if (fitsSlotType(out[field], fieldType)) setSlotType(out, field, fieldType);
    }
    return out;
  }
  if (type?.kind === "object" && type.name !== JAVA_OBJECT) out[CLASS_KEY] = type.name;
  const valueType = type?.kind === "map" ? type.value : undefined;
  for (const [k, v] of Object.entries(value)) {
    if (k !== CLASS_KEY || out[CLASS_KEY] === undefined) out[k] = generalizeValue(v, valueType, seen);
  }
  return out;
}
