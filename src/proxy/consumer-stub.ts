import {
  Code,
  type Invoker,
  java,
  javaMethodName,
  type MethodsDefinition,
  RpcError,
  type ServiceDefinition,
  type ServiceStub,
} from "../core/index.js";
import { type CallPlan, callWithPlan, createCallPlan } from "./call-plan.js";

/** Dubbo's `EchoService`: every reference answers `$echo(x)` with `x` when the provider is reachable. */
export interface EchoService {
  $echo<T>(value: T): Promise<T>;
}

export type ConsumerStub<M extends MethodsDefinition> = ServiceStub<M> & EchoService;

/** Names some tools probe on any object; a stub answers them with `undefined` instead of a throwing method. */
const PROBED_NAMES: ReadonlySet<string> = new Set([
  "then",
  "catch",
  "finally",
  "toJSON",
  "constructor",
  "valueOf",
  "inspect",
  "asymmetricMatch",
  "$$typeof",
  "nodeType",
]);

function methodFunction(
  invoker: Invoker,
  plan: CallPlan,
  label: string,
): (...args: unknown[]) => Promise<unknown> {
  const expected = plan.parameterTypes.length;
  const signature = `${label}(${plan.parameterTypes.map((t) => t.name).join(", ")})`;
  return (...args: unknown[]) => {
    if (args.length !== expected) {
      throw new TypeError(`${signature} takes ${expected} argument(s), got ${args.length}`);
    }
    return callWithPlan(invoker, plan, args);
  };
}

/**
 * The consumer stub of a service: a `Proxy` whose methods turn calls into invocations carrying the
 * contract's Java types and a deadline from the reference URL (`sayHello.timeout` over `timeout`,
 * default 1000 ms), all resolved here once. Every method returns a promise of the value.
 *
 * Misuse fails fast with a `TypeError` thrown synchronously (not a rejected promise), as calling a
 * missing JavaScript function does: a method the contract lacks (naming the methods it has), or the
 * wrong number of arguments. `stub.$echo(x)` sends Dubbo's echo probe. Errors of the call itself
 * (no provider, timeout, the provider's exception) reject the returned promise.
 */
export function createStub<M extends MethodsDefinition>(
  definition: ServiceDefinition<M>,
  invoker: Invoker,
): ConsumerStub<M> {
  const service = definition.interfaceName;
  const url = invoker.url;
  if (url.serviceInterface !== "" && url.serviceInterface !== service) {
    throw new RpcError(
      `cannot make a ${service} stub over a reference to ${url.serviceInterface} (check the reference's interface)`,
      Code.InvalidArgument,
    );
  }
  const target: Record<string | symbol, unknown> = Object.create(null);
  for (const [name, method] of Object.entries(definition.methods)) {
    const plan = createCallPlan(url, service, {
      method: javaMethodName(name, method),
      parameterTypes: method.args,
      returnType: method.returns,
    });
    target[name] = methodFunction(invoker, plan, `${service}.${name}`);
  }
  const echoPlan = createCallPlan(url, service, {
    method: "$echo",
    parameterTypes: [java.Object],
    returnType: java.Object,
  });
  target.$echo = methodFunction(invoker, echoPlan, `${service}.$echo`);
  const known = Object.keys(definition.methods);
  const tag = `DubboStub<${service}>`;
  const description = `[${tag}]`;
  return new Proxy(Object.freeze(target), {
    get(t, prop) {
      if (Object.hasOwn(t, prop)) return t[prop];
      if (prop === Symbol.toStringTag) return tag;
      if (prop === "toString") return () => description;
      if (typeof prop !== "string" || PROBED_NAMES.has(prop)) return undefined;
      return () => {
        throw new TypeError(
          `${service} has no method "${prop}" (the contract's methods: ${known.join(", ") || "none"}; plus $echo)`,
        );
      };
    },
    has: (t, prop) => Object.hasOwn(t, prop),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  }) as unknown as ConsumerStub<M>;
}
