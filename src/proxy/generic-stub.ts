import { type Invoker, java, type Url } from "../core/index.js";
import { BIND_CALL_OPTIONS, mergeCallOptions, type ResolvedCallOptions } from "./call-options.js";
import { type CallPlan, callWithPlan, createCallPlan } from "./call-plan.js";
import type { EchoService } from "./echo-service.js";

/**
 * Dubbo's `GenericService`: call any method by name without the contract. `types` are the Java
 * parameter type names (`java.lang.String`, `int`, `com.foo.User`), or null to match by name only;
 * POJOs go as maps with a `class` key and come back the same way.
 */
export interface GenericStub extends EchoService {
  $invoke(method: string, types: readonly string[] | null, args: readonly unknown[]): Promise<unknown>;
  $invokeAsync(method: string, types: readonly string[] | null, args: readonly unknown[]): Promise<unknown>;
}

const GENERIC_PARAMETER_TYPES = Object.freeze([
  java.String,
  java.array(java.String),
  java.array(java.Object),
]);

/** The `X.return` / `methods.X.return` keys of a URL, read once so a generic call does no URL lookups. */
function methodsWithSettings(url: Url): Set<string> {
  const names = new Set<string>();
  for (const key of url.params.keys()) {
    const m = /^(?:methods\.)?([^.]+)\.return$/.exec(key);
    if (m?.[1] !== undefined) names.add(m[1]);
  }
  return names;
}

/**
 * A generic stub over a reference (Java: `<dubbo:reference generic="true">`). Calls carry the
 * `generic` attachment (the reference URL's `generic` value, default `true`) and the `return`
 * setting of the method actually called; each attempt waits that method's timeout
 * (`sayHello.timeout` over `timeout`), as Java's DubboInvoker reads it for `$invoke`.
 */
export function createGenericStub(invoker: Invoker): GenericStub {
  const url = invoker.url;
  const service = url.serviceInterface;
  const urlGeneric = url.get("generic");
  const generic =
    urlGeneric === undefined || urlGeneric === "" || urlGeneric === "false" ? "true" : urlGeneric;
  const attachments = Object.freeze({ generic });
  const plansFor = (method: "$invoke" | "$invokeAsync") => {
    const plan = (settingsMethod?: string): CallPlan =>
      createCallPlan(url, service, {
        method,
        parameterTypes: GENERIC_PARAMETER_TYPES,
        returnType: java.Object,
        attachments,
        ...(settingsMethod === undefined ? {} : { settingsMethod }),
      });
    const fallback = plan();
    const byMethod = new Map([...methodsWithSettings(url)].map((m) => [m, plan(m)] as const));
    return (name: string): CallPlan => byMethod.get(name) ?? fallback;
  };
  const invokePlans = plansFor("$invoke");
  const invokeAsyncPlans = plansFor("$invokeAsync");
  const echoPlan = createCallPlan(url, service, {
    method: "$echo",
    parameterTypes: [java.Object],
    returnType: java.Object,
  });
  const check = (what: string, method: unknown, args: unknown): void => {
    if (typeof method !== "string" || method === "") {
      throw new TypeError(
        `${service}.${what}: the method name must be a non-empty string, got ${String(method)}`,
      );
    }
    if (args !== null && args !== undefined && !Array.isArray(args)) {
      throw new TypeError(`${service}.${what}(${method}): args must be an array, got ${typeof args}`);
    }
  };
  const view = (options: ResolvedCallOptions | undefined): GenericStub => {
    const stub: GenericStub = {
      $invoke(method: string, types: readonly string[] | null, args: readonly unknown[]) {
        check("$invoke", method, args);
        return callWithPlan(invoker, invokePlans(method), [method, types, args ?? []], options);
      },
      $invokeAsync(method: string, types: readonly string[] | null, args: readonly unknown[]) {
        check("$invokeAsync", method, args);
        return callWithPlan(invoker, invokeAsyncPlans(method), [method, types, args ?? []], options);
      },
      $echo<T>(value: T): Promise<T> {
        return callWithPlan(invoker, echoPlan, [value], options) as Promise<T>;
      },
    };
    Object.defineProperty(stub, BIND_CALL_OPTIONS, {
      value: (next: ResolvedCallOptions) => view(mergeCallOptions(options, next)),
    });
    return Object.freeze(stub);
  };
  return view(undefined);
}
