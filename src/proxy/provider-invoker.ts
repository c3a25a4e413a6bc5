import {
  Code,
  createMethodDispatch,
  type Invocation,
  type InvokeFn,
  type Invoker,
  type MethodsDefinition,
  RpcError,
  type RpcResult,
  resultOf,
  type ServiceDefinition,
  type ServiceImplementation,
  type Url,
} from "../core/index.js";
import { createIdlProviderInvoker, implementationInvoker } from "../protocol/shared/index.js";

type ImplementationMethod = (...args: unknown[]) => unknown;

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
): Map<string, ImplementationMethod> {
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
  const methods = new Map<string, ImplementationMethod>();
  const missing: string[] = [];
  for (const key of Object.keys(definition.methods)) {
    const fn = (implementation as Record<string, unknown>)[key];
    if (typeof fn === "function") methods.set(key, fn as ImplementationMethod);
    else missing.push(key);
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
 * at export time. A call runs the overload its parameter types name, and only when every argument
 * fits its declared Java type (else an `InvalidArgument` error, the function not called). The user's function runs inside the provider RpcContext (opened here when no
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
  if (definition.idl !== undefined) {
    return createIdlProviderInvoker({ ...definition, idl: definition.idl }, implementation, url);
  }
  const functions = indexImplementation(definition, implementation);
  const dispatch = createMethodDispatch(definition);
  const direct: InvokeFn = (inv) => {
    const method = dispatch.resolve(inv);
    if (method instanceof RpcError) return Promise.reject(method);
    return callImplementation(implementation, functions.get(method.key)!, inv);
  };

  return implementationInvoker(url, definition, direct);
}
