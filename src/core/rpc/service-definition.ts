import { type JavaType, type JavaValue, type JavaValues, parameterDescriptor } from "../java/java-type.js";
import type { IdlService } from "./idl-method.js";

/** A Java parameter list as a tuple, so `[name, times]` keeps its order in the types. */
type JavaTypeTuple = readonly [] | readonly [JavaType, ...JavaType[]];

/**
 * A method's Java parameter types, in Java's order: a list (`[java.String, java.int]`), or named
 * parameters whose defaults are their Java types, returned in order
 * (`(name = java.String, times = java.int) => [name, times]`), so hovers show the names.
 */
export type ArgsDeclaration = readonly JavaType[] | ((...types: never[]) => JavaTypeTuple);

/** One method as `defineService` receives it. */
export interface MethodDeclaration {
  readonly args: ArgsDeclaration;
  /** Java return type (`java.void` for none). */
  readonly returns: JavaType;
  /**
   * The Java method's name when it differs from the entry's key: how an overload is declared.
   * Each overload gets its own key (its own typed stub and implementation method) and the same
   * `javaName`; calls are dispatched by name and parameter types, as Java does.
   */
  readonly javaName?: string;
}

export type MethodsDeclaration = Readonly<Record<string, MethodDeclaration>>;

/** One method of a defined contract: its Java types, and the TypeScript parameters they stand for. */
export interface MethodDefinition<
  A extends readonly JavaType[] = readonly JavaType[],
  R extends JavaType = JavaType,
  P extends readonly unknown[] = JavaValues<A>,
> {
  /** Java parameter types, in order. */
  readonly args: A;
  /** Java return type (`java.void` for none). */
  readonly returns: R;
  /**
   * The Java method's name when it differs from the entry's key: how an overload is declared.
   * Each overload gets its own key (its own typed stub and implementation method) and the same
   * `javaName`; calls are dispatched by name and parameter types, as Java does.
   */
  readonly javaName?: string;
  /** Phantom: never set at run time; the TypeScript parameters, named when the contract names them. */
  readonly __parameters?: P;
}

export type MethodsDefinition = Readonly<Record<string, MethodDefinition>>;

/** The Java types of a named declaration: its parameters' defaults, in order. */
type NamedJavaTypes<P extends readonly unknown[]> = { [I in keyof P]-?: Exclude<P[I], undefined> };

type JavaTypesOf<D extends ArgsDeclaration> = D extends readonly JavaType[]
  ? D
  : D extends (...types: infer P) => JavaTypeTuple
    ? Extract<Readonly<NamedJavaTypes<P>>, readonly JavaType[]>
    : never;

/** The TypeScript parameters of a declaration; a homomorphic map, so named parameters keep their names. */
type ParametersOf<D extends ArgsDeclaration> = D extends readonly JavaType[]
  ? JavaValues<D>
  : D extends (...types: infer P) => JavaTypeTuple
    ? [...{ [I in keyof P]-?: JavaValue<P[I]> }]
    : never;

/** The defined form of declared methods: `args` always the Java type list. */
export type DefinedMethods<M extends MethodsDeclaration> = {
  readonly [K in keyof M]: MethodDefinition<
    JavaTypesOf<M[K]["args"]>,
    M[K]["returns"],
    ParametersOf<M[K]["args"]>
  >;
};

type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Rejects, at compile time, a named declaration that does not return its parameters in their
 * order (`(name = java.String, id = java.long) => [id, name]`): Java's order is the parameters'.
 */
export type AgreeingArgs<M extends MethodsDeclaration> = {
  readonly [K in keyof M]: M[K]["args"] extends (...types: infer P) => infer R
    ? SameType<Readonly<R>, Readonly<NamedJavaTypes<P>>> extends true
      ? unknown
      : { readonly args: (...types: P) => NamedJavaTypes<P> }
    : unknown;
};

/**
 * A service contract, declared once and shared by provider and consumer: the Java interface name
 * and each method's Java parameter and return types.
 */
export interface ServiceDefinition<M extends MethodsDefinition = MethodsDefinition> {
  readonly interfaceName: string;
  readonly methods: M;
  /** An IDL service's methods (`defineProtoService`); its `methods` is then empty. */
  readonly idl?: IdlService | undefined;
}

type ParametersOfMethod<D extends MethodDefinition> = NonNullable<D["__parameters"]>;

/** What a provider implements: each method may return the value or a promise of it. */
export type ServiceImplementation<M extends MethodsDefinition> = {
  [K in keyof M]: (
    ...args: ParametersOfMethod<M[K]>
  ) => JavaValue<M[K]["returns"]> | Promise<JavaValue<M[K]["returns"]>>;
};

/** What a consumer calls: every method returns a promise. */
export type ServiceStub<M extends MethodsDefinition> = {
  readonly [K in keyof M]: (...args: ParametersOfMethod<M[K]>) => Promise<JavaValue<M[K]["returns"]>>;
};

const JAVA_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The Java method a contract entry declares: its `javaName`, or its key. */
export function javaMethodName(key: string, method: MethodDefinition): string {
  return method.javaName ?? key;
}

/** The Java method names of a contract (overloads once), sorted: the `methods` URL parameter. */
export function javaMethodNames(definition: ServiceDefinition): string[] {
  const names = new Set<string>();
  for (const [key, method] of Object.entries(definition.methods)) names.add(javaMethodName(key, method));
  // A Java IDL stub interface declares each rpc by its generated camelCase name.
  for (const method of definition.idl?.methods.values() ?? []) names.add(method.localName);
  return [...names].sort();
}
/**
 * The names method settings (`methods.<name>`, the URL's `<name>.timeout`) take: an IDL service's
 * rpc names (`SayHello`, the invocation's method, as on the wire), else the Java method names.
 */
export function settingMethodNames(definition: ServiceDefinition): string[] {
  if (definition.idl === undefined) return javaMethodNames(definition);
  return [...definition.idl.methods.keys()].sort();
}

/**
 * The path a service is exported and called at: an IDL service's proto `package.Service`, else its
 * interface name (`iface`, the interface a service or reference is configured with).
 */
export function servicePath(iface: string, definition: ServiceDefinition | undefined): string {
  return definition?.idl?.path ?? iface;
}

const JAVA_CLASS_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

/** Whether `name` is a dotted Java class name (`org.apache.dubbo.demo.DemoService`). */
export function isJavaClassName(name: unknown): name is string {
  return typeof name === "string" && JAVA_CLASS_NAME.test(name);
}

/**
 * Declares a service contract. Throws a `TypeError` naming the problem when the interface or a
 * method name is not a valid Java name, or a method lacks its types.
 *
 * @example
 * const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
 *   sayHello: { args: [java.String], returns: java.String },
 *   greet: { args: (name = java.String, times = java.int) => [name, times], returns: java.String },
 *   // the overload sayHello(String, int), called as stub.sayHelloTimes("ann", 3)
 *   sayHelloTimes: { javaName: "sayHello", args: [java.String, java.int], returns: java.String },
 * });
 */
export function defineService<const M extends MethodsDeclaration>(
  interfaceName: string,
  methods: M & AgreeingArgs<M>,
): ServiceDefinition<DefinedMethods<M>> {
  if (!isJavaClassName(interfaceName)) {
    throw new TypeError(
      `defineService: "${String(interfaceName)}" is not a Java interface name (expected e.g. org.apache.dubbo.demo.DemoService)`,
    );
  }
  const defined: Record<string, MethodDefinition> = {};
  for (const [name, method] of Object.entries<MethodDeclaration>(methods)) {
    if (!JAVA_IDENTIFIER.test(name) || name.startsWith("$")) {
      throw new TypeError(
        `defineService(${interfaceName}): "${name}" is not a valid method name ($-names are reserved for $invoke and $echo)`,
      );
    }
    const javaName = method.javaName;
    if (
      javaName !== undefined &&
      (typeof javaName !== "string" || !JAVA_IDENTIFIER.test(javaName) || javaName.startsWith("$"))
    ) {
      throw new TypeError(
        `defineService(${interfaceName}): method "${name}" has javaName ${JSON.stringify(javaName)}, which is not a Java method name`,
      );
    }
    defined[name] = Object.freeze({
      ...method,
      args: javaTypesOf(method, `${interfaceName}): method "${name}`),
    });
  }
  rejectDuplicateSignatures(interfaceName, defined);
  return Object.freeze({ interfaceName, methods: Object.freeze(defined) as DefinedMethods<M> });
}

/** The Java parameter list of one declared method, checked; `where` names it in errors. */
function javaTypesOf(method: MethodDeclaration | undefined, where: string): readonly JavaType[] {
  const args = method?.args;
  const types: unknown = typeof args === "function" ? args() : args;
  if (!Array.isArray(types) || method?.returns === undefined) {
    throw new TypeError(
      `defineService(${where}" needs { args: [...Java types] or (name = java.String, ...) => [name, ...], returns: Java type }`,
    );
  }
  types.forEach((t: JavaType | undefined, i) => {
    if (typeof t?.descriptor !== "string") {
      throw new TypeError(
        `defineService(${where}": argument ${i} is not a Java type (use java.String, java.int, java.List(...), ...)`,
      );
    }
  });
  return Object.freeze([...types]);
}

/** Two entries for one Java signature would make dispatch ambiguous. */
function rejectDuplicateSignatures(interfaceName: string, methods: MethodsDefinition): void {
  const bySignature = new Map<string, string>();
  for (const [key, method] of Object.entries(methods)) {
    const signature = `${javaMethodName(key, method)}(${parameterDescriptor(method.args)})`;
    const other = bySignature.get(signature);
    if (other !== undefined) {
      throw new TypeError(
        `defineService(${interfaceName}): "${other}" and "${key}" both declare ${signature}; give overloads different parameter types`,
      );
    }
    bySignature.set(signature, key);
  }
}
