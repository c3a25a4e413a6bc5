import { type JavaType, parameterDescriptor, type TsOf, type TsOfAll } from "../java/java-type.js";

export interface MethodDefinition<
  A extends readonly JavaType[] = readonly JavaType[],
  R extends JavaType = JavaType,
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
}

export type MethodsDefinition = Readonly<Record<string, MethodDefinition>>;

/**
 * A service contract, declared once and shared by provider and consumer: the Java interface name
 * and each method's Java parameter and return types.
 */
export interface ServiceDefinition<M extends MethodsDefinition = MethodsDefinition> {
  readonly interfaceName: string;
  readonly methods: M;
}

/** What a provider implements: each method may return the value or a promise of it. */
export type ServiceImplementation<M extends MethodsDefinition> = {
  [K in keyof M]: (...args: TsOfAll<M[K]["args"]>) => TsOf<M[K]["returns"]> | Promise<TsOf<M[K]["returns"]>>;
};

/** What a consumer calls: every method returns a promise. */
export type ServiceStub<M extends MethodsDefinition> = {
  readonly [K in keyof M]: (...args: TsOfAll<M[K]["args"]>) => Promise<TsOf<M[K]["returns"]>>;
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
  return [...names].sort();
}
const JAVA_CLASS_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

/**
 * Declares a service contract. Throws a `TypeError` naming the problem when the interface or a
 * method name is not a valid Java name, or a method lacks its types.
 *
 * @example
 * const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
 *   sayHello: { args: [java.String], returns: java.String },
 *   // the overload sayHello(String, int), called as stub.sayHelloTimes("ann", 3)
 *   sayHelloTimes: { javaName: "sayHello", args: [java.String, java.int], returns: java.String },
 * });
 */
export function defineService<const M extends MethodsDefinition>(
  interfaceName: string,
  methods: M,
): ServiceDefinition<M> {
  if (typeof interfaceName !== "string" || !JAVA_CLASS_NAME.test(interfaceName)) {
    throw new TypeError(
      `defineService: "${String(interfaceName)}" is not a Java interface name (expected e.g. org.apache.dubbo.demo.DemoService)`,
    );
  }
  for (const [name, method] of Object.entries(methods)) {
    if (!JAVA_IDENTIFIER.test(name) || name.startsWith("$")) {
      throw new TypeError(
        `defineService(${interfaceName}): "${name}" is not a valid method name ($-names are reserved for $invoke and $echo)`,
      );
    }
    if (!Array.isArray(method?.args) || method.returns === undefined) {
      throw new TypeError(
        `defineService(${interfaceName}): method "${name}" needs { args: [...Java types], returns: Java type }`,
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
    method.args.forEach((t, i) => {
      if (typeof t?.descriptor !== "string") {
        throw new TypeError(
          `defineService(${interfaceName}): argument ${i} of "${name}" is not a Java type (use java.String, java.int, java.List(...), ...)`,
        );
      }
    });
  }
  rejectDuplicateSignatures(interfaceName, methods);
  return Object.freeze({ interfaceName, methods: Object.freeze({ ...methods }) as M });
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
