import {
  Code,
  checkJavaValue,
  type Invocation,
  type InvokeFn,
  type Invoker,
  invokeInProviderContext,
  isInProviderContextOf,
  type JavaType,
  javaMethodName,
  type MethodsDefinition,
  parameterDescriptor,
  RpcError,
  type RpcResult,
  resultOf,
  type ServiceDefinition,
  type ServiceImplementation,
  type Url,
} from "../core/index.js";

type ImplementationMethod = (...args: unknown[]) => unknown;

/** One overload of a Java method, bound to the implementation's function for its contract entry. */
interface BoundMethod {
  readonly fn: ImplementationMethod;
  readonly parameterTypes: readonly JavaType[];
  readonly descriptor: string;
  /** `sayHello(java.lang.String, int)`, for messages. */
  readonly signature: string;
  /** Parameters declared more specifically than Object: the ones whose arguments are checked. */
  readonly checked: readonly number[];
}

function bindMethod(
  name: string,
  fn: ImplementationMethod,
  parameterTypes: readonly JavaType[],
): BoundMethod {
  const checked: number[] = [];
  parameterTypes.forEach((t, i) => {
    if (t.kind !== "object") checked.push(i);
  });
  return {
    fn,
    parameterTypes,
    descriptor: parameterDescriptor(parameterTypes),
    signature: `${name}(${parameterTypes.map((t) => t.name).join(", ")})`,
    checked,
  };
}

function functionNames(implementation: object): string[] {
  const names = new Set<string>();
  for (
    let o: object | null = implementation;
    o !== null && o !== Object.prototype;
    o = Object.getPrototypeOf(o)
  ) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key !== "constructor" && typeof (implementation as Record<string, unknown>)[key] === "function")
        names.add(key);
    }
  }
  return [...names];
}

function indexImplementation(
  definition: ServiceDefinition,
  implementation: unknown,
): Map<string, BoundMethod[]> {
  const service = definition.interfaceName;
  if (typeof implementation === "function") {
    throw new RpcError(
      `the implementation of ${service} is a function or class; pass an object or an instance (new ${implementation.name || "Impl"}())`,
      Code.InvalidArgument,
    );
  }
  if (typeof implementation !== "object" || implementation === null) {
    throw new RpcError(
      `the implementation of ${service} must be an object with its methods, got ${String(implementation)}`,
      Code.InvalidArgument,
    );
  }
  const methods = new Map<string, BoundMethod[]>();
  const missing: string[] = [];
  for (const [key, method] of Object.entries(definition.methods)) {
    const fn = (implementation as Record<string, unknown>)[key];
    if (typeof fn !== "function") {
      missing.push(key);
      continue;
    }
    const name = javaMethodName(key, method);
    const overloads = methods.get(name) ?? [];
    overloads.push(bindMethod(name, fn as ImplementationMethod, method.args));
    methods.set(name, overloads);
  }
  if (missing.length > 0) {
    throw new RpcError(
      `the implementation of ${service} lacks ${missing.map((m) => `"${m}"`).join(", ")} ` +
        `(it has: ${functionNames(implementation).join(", ") || "no methods"}); every method of the contract must be implemented`,
      Code.InvalidArgument,
    );
  }
  return methods;
}

/**
 * The overload a call names: by the parameter types it carries (the contract's own array when the
 * protocol matched the request's descriptor, else compared by descriptor), or the only one.
 */
function selectOverload(overloads: readonly BoundMethod[], inv: Invocation): BoundMethod | undefined {
  if (overloads.length === 1) {
    const only = overloads[0]!;
    const types = inv.parameterTypes;
    return types === only.parameterTypes ||
      types.length === 0 ||
      parameterDescriptor(types) === only.descriptor
      ? only
      : undefined;
  }
  for (const method of overloads) if (method.parameterTypes === inv.parameterTypes) return method;
  const descriptor = parameterDescriptor(inv.parameterTypes);
  for (const method of overloads) if (method.descriptor === descriptor) return method;
  return undefined;
}

/** The first argument that is not of its declared Java type, as the error the caller gets. */
function wrongArgument(service: string, method: BoundMethod, args: readonly unknown[]): RpcError | undefined {
  for (const i of method.checked) {
    const wrong = checkJavaValue(args[i], method.parameterTypes[i]!, `args[${i}]`);
    if (wrong !== undefined) {
      return new RpcError(
        `${service}.${method.signature}: ${wrong.path} is ${wrong.actual}, not ${wrong.expected}; ` +
          "the provider did not run the method (send the argument as the contract declares it)",
        Code.InvalidArgument,
      );
    }
  }
  return undefined;
}

function callImplementation(
  implementation: object,
  fn: ImplementationMethod,
  inv: Invocation,
): Promise<RpcResult> {
  try {
    const value = fn.apply(implementation, inv.args as unknown[]);
    return value instanceof Promise || (typeof value === "object" && value !== null && "then" in value)
      ? Promise.resolve(value).then(resultOf)
      : Promise.resolve(resultOf(value));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The provider side of a service: wraps an object or class instance implementing the contract into
 * an invoker. Method lookup is precomputed; a contract method the implementation lacks fails here,
 * at export time. The user's function runs inside the provider RpcContext (opened here when no
 * context filter did), and a synchronous throw or a rejected promise becomes the call's error.
 */
export function createProviderInvoker<M extends MethodsDefinition>(
  definition: ServiceDefinition<M>,
  implementation: ServiceImplementation<M>,
  url: Url,
): Invoker {
  const service = definition.interfaceName;
  if (url.serviceInterface !== service) {
    throw new RpcError(
      `the provider URL names ${url.serviceInterface || "no interface"} but the contract is ${service} (set interface=${service})`,
      Code.InvalidArgument,
    );
  }
  const methods = indexImplementation(definition, implementation);
  const known = [...methods.keys()].join(", ");
  const localAddress = url.address;
  let destroyed = false;

  const direct: InvokeFn = (inv) => {
    const overloads = methods.get(inv.method);
    if (overloads === undefined) {
      return Promise.reject(
        new RpcError(
          `${service} has no method "${inv.method}" (methods: ${known || "none"})`,
          Code.Unimplemented,
        ),
      );
    }
    const method = selectOverload(overloads, inv);
    if (method === undefined) {
      return Promise.reject(
        new RpcError(
          `${service} has no method ${inv.method}(${inv.parameterTypes.map((t) => t.name).join(", ")}) ` +
            `(it has ${overloads.map((m) => m.signature).join(", ")})`,
          Code.Unimplemented,
        ),
      );
    }
    if (inv.args.length !== method.parameterTypes.length) {
      return Promise.reject(
        new RpcError(
          `${service}.${method.signature} takes ${method.parameterTypes.length} argument(s), the call carried ${inv.args.length}`,
          Code.InvalidArgument,
        ),
      );
    }
    const wrong = wrongArgument(service, method, inv.args);
    if (wrong !== undefined) return Promise.reject(wrong);
    return callImplementation(implementation, method.fn, inv);
  };

  return {
    url,
    definition,
    invoke(inv: Invocation): Promise<RpcResult> {
      if (destroyed) {
        return Promise.reject(
          new RpcError(
            `${service}.${inv.method}: the service was unexported at ${localAddress}`,
            Code.Unavailable,
          ),
        );
      }
      return isInProviderContextOf(inv) ? direct(inv) : invokeInProviderContext(inv, localAddress, direct);
    },
    isAvailable: () => !destroyed,
    async destroy() {
      destroyed = true;
    },
  };
}
