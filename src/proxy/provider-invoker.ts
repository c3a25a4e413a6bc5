import {
  Code,
  type Invocation,
  type InvokeFn,
  type Invoker,
  invokeInProviderContext,
  isInProviderContextOf,
  type MethodsDefinition,
  RpcError,
  type RpcResult,
  resultOf,
  type ServiceDefinition,
  type ServiceImplementation,
  type Url,
} from "../core/index.js";

type ImplementationMethod = (...args: unknown[]) => unknown;

interface BoundMethod {
  readonly fn: ImplementationMethod;
  readonly arity: number;
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
): Map<string, BoundMethod> {
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
  const methods = new Map<string, BoundMethod>();
  const missing: string[] = [];
  for (const [name, method] of Object.entries(definition.methods)) {
    const fn = (implementation as Record<string, unknown>)[name];
    if (typeof fn === "function")
      methods.set(name, { fn: fn as ImplementationMethod, arity: method.args.length });
    else missing.push(name);
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
    const method = methods.get(inv.method);
    if (method === undefined) {
      return Promise.reject(
        new RpcError(
          `${service} has no method "${inv.method}" (methods: ${known || "none"})`,
          Code.Unimplemented,
        ),
      );
    }
    if (inv.args.length !== method.arity) {
      return Promise.reject(
        new RpcError(
          `${service}.${inv.method} takes ${method.arity} argument(s), the call carried ${inv.args.length}`,
          Code.InvalidArgument,
        ),
      );
    }
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
