import type { JavaType } from "../../core/index.js";

/**
 * The type name Java's CollectionSerializer / MapSerializer would put on the wire for a declared
 * type: ArrayList and HashMap go untyped, an interface becomes the class Java instantiates for it.
 */
const COLLECTION_WIRE_NAMES: ReadonlyMap<string, string | null> = new Map<string, string | null>([
  ["java.util.List", null],
  ["java.util.ArrayList", null],
  ["java.util.Collection", null],
  ["java.util.AbstractList", null],
  ["java.lang.Iterable", null],
  ["java.util.Set", "java.util.HashSet"],
  ["java.util.SortedSet", "java.util.TreeSet"],
  ["java.util.NavigableSet", "java.util.TreeSet"],
  ["java.util.Queue", "java.util.LinkedList"],
  ["java.util.Deque", "java.util.ArrayDeque"],
  ["java.util.Map", null],
  ["java.util.HashMap", null],
  ["java.util.SortedMap", "java.util.TreeMap"],
  ["java.util.NavigableMap", "java.util.TreeMap"],
  ["java.util.concurrent.ConcurrentMap", "java.util.concurrent.ConcurrentHashMap"],
]);

/** `null` means untyped on the wire. */
export function collectionWireName(declared: string): string | null {
  const mapped = COLLECTION_WIRE_NAMES.get(declared);
  return mapped === undefined ? declared : mapped;
}

const arrayNames = new WeakMap<JavaType, string>();

/** The list type Java's ArraySerializer writes: `[int`, `[string`, `[object`, `[com.foo.User`, `[[int`. */
export function arrayWireName(type: JavaType): string {
  let name = arrayNames.get(type);
  if (name === undefined) {
    name = type.element === undefined ? "[object" : `[${componentName(type.element)}`;
    arrayNames.set(type, name);
  }
  return name;
}

function componentName(element: JavaType): string {
  if (element.primitive) return element.name;
  if (element.kind === "array") return arrayWireName(element);
  switch (element.name) {
    case "java.lang.String":
      return "string";
    case "java.lang.Object":
      return "object";
    case "java.util.Date":
      return "date";
    default:
      return element.name;
  }
}

const fieldLists = new WeakMap<object, readonly string[]>();

/** The declared field names of a class type, in declaration order (cached: the writer's hot path). */
function fieldNames(fields: Readonly<Record<string, JavaType>>): readonly string[] {
  let names = fieldLists.get(fields);
  if (names === undefined) {
    names = Object.freeze(Object.keys(fields));
    fieldLists.set(fields, names);
  }
  return names;
}

/** A declared class type, ready to write: field names in declaration order and each field's type. */
export interface BeanPlan {
  readonly fields: readonly string[];
  readonly types: readonly JavaType[];
  /** Some field is declared Object: only then can a decoded bean's slot types matter. */
  readonly hasObjectField: boolean;
}

const beanPlans = new WeakMap<JavaType, BeanPlan>();
// One-entry caches in front of the WeakMaps: a list of beans asks for the same type again and again.
let lastBeanType: JavaType | undefined;
let lastBeanPlan: BeanPlan | undefined;

/** The write plan of a class type that declares its fields. */
export function beanPlanOf(type: JavaType, declared: Readonly<Record<string, JavaType>>): BeanPlan {
  if (type === lastBeanType && lastBeanPlan !== undefined) return lastBeanPlan;
  let plan = beanPlans.get(type);
  if (plan === undefined) {
    const fields = fieldNames(declared);
    const types = Object.freeze(fields.map((field) => declared[field]!));
    plan = Object.freeze({ fields, types, hasObjectField: types.some((t) => t.kind === "object") });
    beanPlans.set(type, plan);
  }
  lastBeanType = type;
  lastBeanPlan = plan;
  return plan;
}

let lastCollectionType: JavaType | undefined;
let lastCollectionWire: string | null = null;

/** collectionWireName of a declared collection or map type's own name. */
export function declaredWireName(type: JavaType): string | null {
  if (type !== lastCollectionType) {
    lastCollectionWire = collectionWireName(type.name);
    lastCollectionType = type;
  }
  return lastCollectionWire;
}
