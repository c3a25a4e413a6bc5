/**
 * Java type descriptors. A service contract names each method's Java parameter and return types
 * once; the serializer uses them to write values exactly as Java expects (no hand wrapping) and the
 * codec derives the JVM descriptor string (`Ljava/lang/String;I`) from them. The type parameter is
 * the TypeScript type of a value of that Java type, so stubs are inferred from the contract.
 */
export type JavaKind =
  | "boolean"
  | "byte"
  | "short"
  | "int"
  | "long"
  | "float"
  | "double"
  | "char"
  | "string"
  | "object"
  | "date"
  | "bigdecimal"
  | "biginteger"
  | "bytes"
  | "list"
  | "set"
  | "map"
  | "array"
  | "class"
  | "enum"
  | "time"
  | "void";

/**
 * A Java long no contract declared (read from a descriptor, or inside `java.Object`): a number
 * when it fits in ±2^53, a bigint beyond (the codec's `longMode`). Both encode as long.
 */
export type JavaLong = number | bigint;

export interface JavaType<T = unknown> {
  readonly kind: JavaKind;
  /** The name `Class.getName()` returns: `int`, `java.lang.String`, `[I`, `[Ljava.lang.String;`, `com.foo.User`. */
  readonly name: string;
  /** The JVM descriptor: `I`, `Ljava/lang/String;`, `[I`. */
  readonly descriptor: string;
  /** Primitives cannot be null; everything else can. */
  readonly primitive: boolean;
  /** Element type of a list, set or array. */
  readonly element?: JavaType;
  /** Key and value types of a map. */
  readonly key?: JavaType;
  readonly value?: JavaType;
  /** Declared fields of a user class, by Java field name. */
  readonly fields?: Readonly<Record<string, JavaType>>;
  /**
   * How a declared long decodes: `number` (`java.long`; a value beyond ±2^53 fails the call) or
   * `bigint` (`java.longBig`). Absent on undeclared longs, which follow the codec's `longMode`.
   */
  readonly longAs?: "number" | "bigint";
  /** Constants of an enum, when declared. */
  readonly constants?: readonly string[];
  /** Phantom: never set at run time, carries the TypeScript type for inference. */
  readonly __ts?: T;
}

/**
 * The TypeScript type of a value of Java type `J`, e.g. `type User = JavaValue<typeof UserType>`.
 * What a stub returns and an implementation receives for that type.
 */
export type JavaValue<J> = J extends JavaType<infer T> ? T : never;

/** The TypeScript types of a Java parameter list, as a fresh tuple (hovers show the element types). */
export type JavaValues<A extends readonly JavaType[]> = [...{ [I in keyof A]: JavaValue<A[I]> }];

/** Flattens an object type for display: hovers show its fields instead of the alias that built it. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

function descriptorOf(name: string): string {
  if (name.startsWith("[")) return name.replaceAll(".", "/");
  return `L${name.replaceAll(".", "/")};`;
}

function make<T>(kind: JavaKind, name: string, extra: Partial<JavaType> = {}): JavaType<T> {
  const primitiveDescriptor = PRIMITIVE_DESCRIPTORS[name];
  return Object.freeze({
    kind,
    name,
    descriptor: primitiveDescriptor ?? descriptorOf(name),
    primitive: primitiveDescriptor !== undefined && name !== "void",
    ...extra,
  }) as JavaType<T>;
}

const PRIMITIVE_DESCRIPTORS: Readonly<Record<string, string>> = {
  boolean: "Z",
  byte: "B",
  short: "S",
  int: "I",
  long: "J",
  float: "F",
  double: "D",
  char: "C",
  void: "V",
};

/** The array name of an element type, as `Class.getName()` prints it: `[I`, `[Ljava.lang.String;`, `[[I`. */
function arrayName(element: JavaType): string {
  if (element.primitive) return `[${element.descriptor}`;
  if (element.name.startsWith("[")) return `[${element.name}`;
  return `[L${element.name};`;
}

function list<T>(element: JavaType<T>, name = "java.util.List"): JavaType<T[]> {
  return make<T[]>("list", name, { element });
}

function set<T>(element: JavaType<T>, name = "java.util.Set"): JavaType<Set<T>> {
  return make<Set<T>>("set", name, { element });
}

function map<K, V>(key: JavaType<K>, value: JavaType<V>, name = "java.util.Map"): JavaType<Map<K, V>> {
  return make<Map<K, V>>("map", name, { key, value });
}

function array<T>(element: JavaType<T>): JavaType<T[]> {
  return make<T[]>("array", arrayName(element), { element });
}

/**
 * A value of a described user class: its fields, plus the Java class name the decoder leaves on
 * it as a non-enumerable `$class` (optional, so plain object literals encode as the class too).
 */
export type JavaClassValue<N extends string, F extends Record<string, JavaType>> = Simplify<
  { [K in keyof F]: JavaValue<F[K]> } & { readonly $class?: N }
>;

/** A user class (a POJO), written as a Hessian class definition with these fields. */
function javaClass<const N extends string, F extends Record<string, JavaType>>(
  name: N,
  fields: F,
): JavaType<JavaClassValue<N, F>> {
  return make<JavaClassValue<N, F>>("class", name, { fields: Object.freeze({ ...fields }) });
}

/** A Java enum; values are the constant names. */
function javaEnum<const C extends readonly string[]>(name: string, constants?: C): JavaType<C[number]> {
  return make<C[number]>(
    "enum",
    name,
    constants === undefined ? {} : { constants: Object.freeze([...constants]) },
  );
}

/** Any class the contract does not describe: values pass through as decoded. */
function javaObject<T = unknown>(name: string): JavaType<T> {
  return make<T>("object", name);
}

function time<T>(simpleName: string): JavaType<T> {
  return make<T>("time", `java.time.${simpleName}`);
}

/** The built-in Java types, named as Java names them. */
export const java = Object.freeze({
  boolean: make<boolean>("boolean", "boolean"),
  byte: make<number>("byte", "byte"),
  short: make<number>("short", "short"),
  int: make<number>("int", "int"),
  /** A long the code handles as a number: exact within ±2^53; a larger value fails the call. */
  long: make<number>("long", "long", { longAs: "number" }),
  /** A long the code handles as a bigint (ids beyond 2^53, e.g. snowflake ids). */
  longBig: make<bigint>("long", "long", { longAs: "bigint" }),
  float: make<number>("float", "float"),
  double: make<number>("double", "double"),
  char: make<string>("char", "char"),
  void: make<void>("void", "void"),
  Boolean: make<boolean>("boolean", "java.lang.Boolean"),
  Byte: make<number>("byte", "java.lang.Byte"),
  Short: make<number>("short", "java.lang.Short"),
  Integer: make<number>("int", "java.lang.Integer"),
  Long: make<number>("long", "java.lang.Long", { longAs: "number" }),
  LongBig: make<bigint>("long", "java.lang.Long", { longAs: "bigint" }),
  Float: make<number>("float", "java.lang.Float"),
  Double: make<number>("double", "java.lang.Double"),
  Character: make<string>("char", "java.lang.Character"),
  String: make<string>("string", "java.lang.String"),
  Object: make<unknown>("object", "java.lang.Object"),
  Date: make<Date>("date", "java.util.Date"),
  /** Decimal values travel as their exact decimal string, e.g. "100.06". */
  BigDecimal: make<string>("bigdecimal", "java.math.BigDecimal"),
  BigInteger: make<bigint>("biginteger", "java.math.BigInteger"),
  /** byte[] */
  bytes: make<Uint8Array>("bytes", "[B"),
  LocalDate: time<Date>("LocalDate"),
  LocalTime: time<string>("LocalTime"),
  LocalDateTime: time<Date>("LocalDateTime"),
  Instant: time<Date>("Instant"),
  Duration: time<string>("Duration"),
  List: list,
  ArrayList: <T>(element: JavaType<T>) => list(element, "java.util.ArrayList"),
  Set: set,
  HashSet: <T>(element: JavaType<T>) => set(element, "java.util.HashSet"),
  Map: map,
  HashMap: <K, V>(key: JavaType<K>, value: JavaType<V>) => map(key, value, "java.util.HashMap"),
  array,
  Class: javaClass,
  enum: javaEnum,
  type: javaObject,
});

/** The concatenated JVM descriptors of a parameter list, as Dubbo's request body carries them. */
export function parameterDescriptor(types: readonly JavaType[]): string {
  let out = "";
  for (const t of types) out += t.descriptor;
  return out;
}

const BY_DESCRIPTOR: ReadonlyMap<string, JavaType> = new Map(
  [
    java.boolean,
    java.byte,
    java.short,
    java.int,
    make<JavaLong>("long", "long"),
    java.float,
    java.double,
    java.char,
    java.Boolean,
    java.Byte,
    java.Short,
    java.Integer,
    make<JavaLong>("long", "java.lang.Long"),
    java.Float,
    java.Double,
    java.Character,
    java.String,
    java.Object,
    java.Date,
    java.BigDecimal,
    java.BigInteger,
    java.bytes,
  ].map((t) => [t.descriptor, t]),
);

const COLLECTION_NAMES: ReadonlyMap<string, (name: string) => JavaType> = new Map<
  string,
  (name: string) => JavaType
>([
  ["java.util.List", (n: string) => list(java.Object, n)],
  ["java.util.ArrayList", (n: string) => list(java.Object, n)],
  ["java.util.LinkedList", (n: string) => list(java.Object, n)],
  ["java.util.Collection", (n: string) => list(java.Object, n)],
  ["java.util.Set", (n: string) => set(java.Object, n)],
  ["java.util.HashSet", (n: string) => set(java.Object, n)],
  ["java.util.Map", (n: string) => map(java.Object, java.Object, n)],
  ["java.util.HashMap", (n: string) => map(java.Object, java.Object, n)],
]);

/** The JavaType of one JVM descriptor (`I`, `Ljava/lang/String;`, `[J`). Unknown classes become `object`. */
export function javaTypeOfDescriptor(descriptor: string): JavaType {
  const known = BY_DESCRIPTOR.get(descriptor);
  if (known !== undefined) return known;
  if (descriptor.startsWith("[")) return array(javaTypeOfDescriptor(descriptor.slice(1)));
  if (descriptor.startsWith("L") && descriptor.endsWith(";")) {
    const name = descriptor.slice(1, -1).replaceAll("/", ".");
    return COLLECTION_NAMES.get(name)?.(name) ?? javaObject(name);
  }
  throw new TypeError(
    `"${descriptor}" is not a JVM type descriptor (expected e.g. I, J, Ljava/lang/String; or [I)`,
  );
}

/**
 * The JavaType of a class name as `Class.getName()` prints it (`int`, `java.lang.String`, `[I`,
 * `[Ljava.lang.String;`): Triple's wrapper names argument types this way, not by descriptor.
 */
export function javaTypeOfClassName(name: string): JavaType {
  return javaTypeOfDescriptor(PRIMITIVE_DESCRIPTORS[name] ?? descriptorOf(name));
}

/** Splits a concatenated parameter descriptor (`Ljava/lang/String;I[J`) into JavaTypes. */
export function parseParameterDescriptor(descriptors: string): JavaType[] {
  const out: JavaType[] = [];
  let i = 0;
  while (i < descriptors.length) {
    const start = i;
    while (descriptors[i] === "[") i++;
    if (descriptors[i] === "L") {
      const end = descriptors.indexOf(";", i);
      if (end < 0) throw new TypeError(`unterminated class descriptor at ${i} in "${descriptors}"`);
      i = end + 1;
    } else {
      i++;
    }
    out.push(javaTypeOfDescriptor(descriptors.slice(start, i)));
  }
  return out;
}
