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
import { BIND_CALL_OPTIONS, mergeCallOptions, type ResolvedCallOptions } from "./call-options.js";
import { type CallPlan, callWithPlan, createCallPlan } from "./call-plan.js";
import type { EchoService } from "./echo-service.js";

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

interface StubMethod {
  readonly name: string;
  readonly plan: CallPlan;
  /** `demo.S.sayHello(java.lang.String)`, for argument-count errors. */
  readonly signature: string;
}

function stubMethod(name: string, plan: CallPlan): StubMethod {
  const signature = `${plan.service}.${name}(${plan.parameterTypes.map((t) => t.name).join(", ")})`;
  return { name, plan, signature };
}

function methodFunction(
  invoker: Invoker,
  { plan, signature }: StubMethod,
  options: ResolvedCallOptions | undefined,
): (...args: unknown[]) => Promise<unknown> {
  const expected = plan.parameterTypes.length;
  return (...args: unknown[]) => {
    if (args.length !== expected) {
      throw new TypeError(`${signature} takes ${expected} argument(s), got ${args.length}`);
    }
    return callWithPlan(invoker, plan, args, options);
  };
}

/**
 * The consumer stub of a service: a `Proxy` whose methods turn calls into invocations carrying the
 * contract's Java types, all resolved here once. Every method returns a promise of the value. Each
 * attempt's timeout comes from the provider's URL (`sayHello.timeout` over `timeout`, default
 * 1000 ms); `withCallOptions(stub, …)` gives calls their own timeout, signal and attachments.
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
  const methods = Object.entries(definition.methods).map(([name, method]) =>
    stubMethod(
      name,
      createCallPlan(url, service, {
        method: javaMethodName(name, method),
        parameterTypes: method.args,
        returnType: method.returns,
      }),
    ),
  );
  methods.push(
    stubMethod(
      "$echo",
      createCallPlan(url, service, {
        method: "$echo",
        parameterTypes: [java.Object],
        returnType: java.Object,
      }),
    ),
  );
  const known = Object.keys(definition.methods);
  const tag = `DubboStub<${service}>`;
  const description = `[${tag}]`;
  const handler: ProxyHandler<Record<string | symbol, unknown>> = {
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
  };
  const view = (options: ResolvedCallOptions | undefined): ConsumerStub<M> => {
    const target: Record<string | symbol, unknown> = Object.create(null);
    for (const method of methods) target[method.name] = methodFunction(invoker, method, options);
    Object.defineProperty(target, BIND_CALL_OPTIONS, {
      value: (next: ResolvedCallOptions) => view(mergeCallOptions(options, next)),
    });
    return new Proxy(Object.freeze(target), handler) as unknown as ConsumerStub<M>;
  };
  return view(undefined);
}
