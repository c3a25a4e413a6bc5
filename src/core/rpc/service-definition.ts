import type { JavaType, TsOf, TsOfAll } from "../java/java-type.js";

export interface MethodDefinition<
  A extends readonly JavaType[] = readonly JavaType[],
  R extends JavaType = JavaType,
> {
  /** Java parameter types, in order. */
  readonly args: A;
  /** Java return type (`java.void` for none). */
  readonly returns: R;
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
const JAVA_CLASS_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

/**
 * Declares a service contract. Throws a `TypeError` naming the problem when the interface or a
 * method name is not a valid Java name, or a method lacks its types.
 *
 * @example
 * const DemoService = defineService("org.apache.dubbo.demo.DemoService", {
 *   sayHello: { args: [java.String], returns: java.String },
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
    method.args.forEach((t, i) => {
      if (typeof t?.descriptor !== "string") {
        throw new TypeError(
          `defineService(${interfaceName}): argument ${i} of "${name}" is not a Java type (use java.String, java.int, java.List(...), ...)`,
        );
      }
    });
  }
  return Object.freeze({ interfaceName, methods: Object.freeze({ ...methods }) as M });
}
