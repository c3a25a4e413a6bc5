// The `java.*` expression that declares one Java type in a contract, as the project maps Java
// types (src/core/java/java-type.ts): collections keep their Java name, which is what the
// descriptor on the wire carries.
import { OBJECT, type TypeRef } from "./java-signature.js";

const BASE: Readonly<Record<string, string>> = {
  Z: "java.boolean",
  B: "java.byte",
  S: "java.short",
  I: "java.int",
  J: "java.long",
  F: "java.float",
  D: "java.double",
  C: "java.char",
  V: "java.void",
};

const KNOWN_CLASSES: Readonly<Record<string, string>> = {
  "java.lang.Boolean": "java.Boolean",
  "java.lang.Byte": "java.Byte",
  "java.lang.Short": "java.Short",
  "java.lang.Integer": "java.Integer",
  "java.lang.Long": "java.Long",
  "java.lang.Float": "java.Float",
  "java.lang.Double": "java.Double",
  "java.lang.Character": "java.Character",
  "java.lang.String": "java.String",
  "java.lang.Object": "java.Object",
  "java.util.Date": "java.Date",
  "java.math.BigDecimal": "java.BigDecimal",
  "java.math.BigInteger": "java.BigInteger",
  "java.time.LocalDate": "java.LocalDate",
  "java.time.LocalTime": "java.LocalTime",
  "java.time.LocalDateTime": "java.LocalDateTime",
  "java.time.Instant": "java.Instant",
  "java.time.Duration": "java.Duration",
};

/** Collection classes by family; the first two of each have a `java.*` helper of their own. */
const LISTS = ["java.util.List", "java.util.ArrayList", "java.util.Collection", "java.util.LinkedList"];
const SETS = [
  "java.util.Set",
  "java.util.HashSet",
  "java.util.LinkedHashSet",
  "java.util.SortedSet",
  "java.util.NavigableSet",
  "java.util.TreeSet",
];
const MAPS = [
  "java.util.Map",
  "java.util.HashMap",
  "java.util.LinkedHashMap",
  "java.util.SortedMap",
  "java.util.NavigableMap",
  "java.util.TreeMap",
  "java.util.concurrent.ConcurrentMap",
  "java.util.concurrent.ConcurrentHashMap",
  "java.util.concurrent.ConcurrentNavigableMap",
  "java.util.concurrent.ConcurrentSkipListMap",
];

/** A `java.*` helper call for a collection: `java.List(x)`, `java.ArrayList(x)` or `java.List(x, "name")`. */
function collection(
  family: readonly string[],
  helpers: readonly [string, string],
  name: string,
  args: string[],
): string {
  if (name === family[0]) return `${helpers[0]}(${args.join(", ")})`;
  if (name === family[1]) return `${helpers[1]}(${args.join(", ")})`;
  return `${helpers[0]}(${[...args, JSON.stringify(name)].join(", ")})`;
}

export interface TypeScope {
  /** Type variables in scope with their bounds. */
  readonly bounds: ReadonlyMap<string, TypeRef>;
  /** The declared constant of an enum or POJO of the jar, or undefined to name it with `java.type`. */
  declared(javaName: string): string | undefined;
}

export function javaTypeExpression(type: TypeRef, scope: TypeScope): string {
  switch (type.sort) {
    case "base":
      return BASE[type.code]!;
    case "any":
      return "java.Object";
    case "var": {
      // A variable inside a generic type: its bound (looked up without itself, as `T extends Comparable<T>` recurses).
      const bound = scope.bounds.get(type.name);
      if (bound === undefined) return "java.Object";
      const bounds = new Map(scope.bounds);
      bounds.delete(type.name);
      return javaTypeExpression(bound, { bounds, declared: (n) => scope.declared(n) });
    }
    case "array":
      if (type.element.sort === "base" && type.element.code === "B") return "java.bytes";
      return `java.array(${javaTypeExpression(type.element, scope)})`;
    case "class":
      return classExpression(type.name, type.args, scope);
    case "bound":
      // The bound type's values, under the descriptor of the variable's erasure.
      return `{ ...${javaTypeExpression(type.type, scope)}, descriptor: ${JSON.stringify(descriptorOf(type.erasure))} }`;
  }
}

/** The JVM descriptor of an erased type (a descriptor's own types: no variables, no wildcards). */
function descriptorOf(type: TypeRef): string {
  switch (type.sort) {
    case "base":
      return type.code;
    case "array":
      return `[${descriptorOf(type.element)}`;
    case "class":
      return `L${type.name.replaceAll(".", "/")};`;
    default:
      return "Ljava/lang/Object;";
  }
}

function classExpression(name: string, typeArgs: readonly TypeRef[], scope: TypeScope): string {
  const known = KNOWN_CLASSES[name];
  if (known !== undefined) return known;
  const arg = (i: number): string => javaTypeExpression(typeArgs[i] ?? OBJECT, scope);
  if (LISTS.includes(name)) return collection(LISTS, ["java.List", "java.ArrayList"], name, [arg(0)]);
  if (SETS.includes(name)) return collection(SETS, ["java.Set", "java.HashSet"], name, [arg(0)]);
  if (MAPS.includes(name)) return collection(MAPS, ["java.Map", "java.HashMap"], name, [arg(0), arg(1)]);
  return scope.declared(name) ?? `java.type(${JSON.stringify(name)})`;
}

/** Dubbo's async form `CompletableFuture<T>` answers a `T` on the wire. */
export function unwrapAsync(type: TypeRef): TypeRef {
  if (type.sort === "class" && type.name === "java.util.concurrent.CompletableFuture") {
    return type.args[0] ?? OBJECT;
  }
  return type;
}
