import {
  BizError,
  Code,
  copySlotTypes,
  deriveInvocation,
  type Filter,
  fitsSlotType,
  type Invocation,
  type InvokeFn,
  type JavaType,
  javaMethodName,
  RpcError,
  type RpcResult,
  resultOf,
  type ServiceDefinition,
  setSlotType,
  shapeOf,
} from "../../core/index.js";
import { generalize } from "./pojo-generalize.js";
import { realize } from "./pojo-realize.js";
import { PojoConversionError } from "./pojo-shape.js";

/** Dubbo's generic entry points: `$invoke(String method, String[] types, Object[] args)` and its async twin. */
export const GENERIC_INVOKE = "$invoke";
export const GENERIC_INVOKE_ASYNC = "$invokeAsync";
/** The attachment (and reference URL key) that says how generic values are represented. */
export const GENERIC_KEY = "generic";
/** What Java's GenericFilter turns a provider's exception into for a generic caller. */
export const GENERIC_EXCEPTION_CLASS = "org.apache.dubbo.rpc.service.GenericException";

interface GenericMethod {
  readonly name: string;
  readonly parameterTypes: readonly JavaType[];
  readonly typeNames: readonly string[];
  readonly returnType: JavaType;
}

/** The contract's methods by Java name, each with its overloads. */
function indexMethods(definition: ServiceDefinition): ReadonlyMap<string, readonly GenericMethod[]> {
  const methods = new Map<string, GenericMethod[]>();
  for (const [key, m] of Object.entries(definition.methods)) {
    const name = javaMethodName(key, m);
    const overloads = methods.get(name) ?? [];
    overloads.push({
      name,
      parameterTypes: m.args,
      typeNames: m.args.map((t) => t.name),
      returnType: m.returns,
    });
    methods.set(name, overloads);
  }
  return methods;
}

function signatureOf(method: GenericMethod, service: string): string {
  return `${service}.${method.name}(${method.typeNames.join(", ")})`;
}

/** The parameter types a generic caller sent, for a message: names as given, anything else by shape. */
function typesText(types: unknown): string {
  if (!Array.isArray(types)) return shapeOf(types);
  const shown = types.slice(0, 16).map((t) => (typeof t === "string" ? t.slice(0, 200) : shapeOf(t)));
  return `[${shown.join(", ")}${types.length > 16 ? `, … (${types.length})` : ""}]`;
}

function sameTypeNames(types: unknown, method: GenericMethod): boolean {
  return (
    Array.isArray(types) &&
    types.length === method.typeNames.length &&
    types.every((t, i) => t === method.typeNames[i])
  );
}

/**
 * The overload a generic call names: by its parameter type names when given (Java's
 * `findMethodByMethodSignature`), else the method's only overload.
 */
function selectMethod(
  inv: Invocation,
  name: string,
  types: unknown,
  overloads: readonly GenericMethod[],
): GenericMethod {
  const service = inv.service;
  if (types === undefined || types === null) {
    if (overloads.length === 1) return overloads[0]!;
    throw new RpcError(
      `${inv.method}: ${service}.${name} is overloaded (${overloads.map((m) => `(${m.typeNames.join(", ")})`).join(", ")}); pass the parameter types`,
      Code.InvalidArgument,
    );
  }
  const method = overloads.find((m) => sameTypeNames(types, m));
  if (method !== undefined) return method;
  throw new RpcError(
    `${inv.method}: parameter types ${typesText(types)} do not match ${overloads.map((m) => signatureOf(m, service)).join(" or ")}`,
    Code.InvalidArgument,
  );
}

/** `true` (the default) realizes arguments and generalizes results; `raw.return` leaves results as they are. */
function generalizesResults(mode: unknown, service: string): boolean {
  if (mode === undefined || mode === "" || (typeof mode === "string" && mode.toLowerCase() === "true"))
    return true;
  if (mode === "raw.return") return false;
  throw new RpcError(
    `${service}: generic=${String(mode)} is not supported by this provider (supported: true, raw.return)`,
    Code.Unimplemented,
  );
}

function toGenericException(error: unknown): unknown {
  if (error instanceof RpcError) return error;
  const javaClass =
    error instanceof BizError ? error.javaClass : error instanceof Error ? error.name : "unknown";
  const message = error instanceof Error ? error.message : String(error);
  return new BizError(`${javaClass}: ${message}`, {
    javaClass: GENERIC_EXCEPTION_CLASS,
    fields: { exceptionClass: javaClass, exceptionMessage: message },
    cause: error,
  });
}

function resolveCall(inv: Invocation, methods: ReadonlyMap<string, readonly GenericMethod[]>): Invocation {
  const service = inv.service;
  const [name, types, args] = inv.args;
  if (typeof name !== "string") {
    throw new RpcError(
      `${service}.${inv.method}: the first argument must be the method name, got ${typeof name}`,
      Code.InvalidArgument,
    );
  }
  const overloads = methods.get(name);
  if (overloads === undefined) {
    throw new RpcError(
      `${service} has no method "${name.slice(0, 200)}" to call through ${inv.method} (methods: ${[...methods.keys()].join(", ") || "none"})`,
      Code.Unimplemented,
    );
  }
  const method = selectMethod(inv, name, types, overloads);
  const signature = signatureOf(method, service);
  const given = args === undefined || args === null ? [] : args;
  if (!Array.isArray(given) || given.length !== method.parameterTypes.length) {
    throw new RpcError(
      `${inv.method}: ${signature} takes ${method.parameterTypes.length} argument(s), got ${Array.isArray(given) ? given.length : shapeOf(given)}`,
      Code.InvalidArgument,
    );
  }
  let realized: unknown[];
  try {
    realized = given.map((a, i) => realize(a, method.parameterTypes[i]!, `args[${i}]`));
    // An Object parameter passes as decoded, with the Java type it came as (a Long stays a Long).
    copySlotTypes(given, realized);
  } catch (error) {
    if (!(error instanceof PojoConversionError)) throw error;
    throw new RpcError(`${inv.method} of ${signature}: ${error.message}`, Code.InvalidArgument, {
      cause: error,
    });
  }
  return deriveInvocation(inv, {
    method: name,
    parameterTypes: method.parameterTypes,
    returnType: method.returnType,
    args: realized,
  });
}

async function invokeGeneric(
  inv: Invocation,
  next: InvokeFn,
  methods: ReadonlyMap<string, readonly GenericMethod[]>,
): Promise<RpcResult> {
  const generalizeResult = generalizesResults(inv.attachments[GENERIC_KEY], inv.service);
  const call = resolveCall(inv, methods);
  let result: RpcResult;
  try {
    result = await next(call);
  } catch (error) {
    throw toGenericException(error);
  }
  if (!generalizeResult) return result;
  const value = generalize(result.value, call.returnType);
  const generalized = resultOf(value, result.attachments);
  // `$invoke` is declared to return Object, and a long or BigDecimal on its own has no container to
  // carry its Java type: the result record carries it for the codec (Java answers a Long as a Long).
  if (call.returnType !== undefined && fitsSlotType(value, call.returnType))
    setSlotType(generalized, "value", call.returnType);
  return generalized;
}

/**
 * Provider side (Java's GenericFilter): a `$invoke` / `$invokeAsync` call is resolved against the
 * service contract, its POJO-as-map arguments realized into the contract's types, the real method
 * called through the rest of the chain, and the result generalized back into maps with a `class`
 * key. A provider exception reaches the generic caller as a GenericException. Invokers without a
 * contract are left alone.
 */
export const genericFilter: Filter = (next, invoker) => {
  const definition = invoker.definition;
  if (definition === undefined) return next;
  const methods = indexMethods(definition);
  return (inv) =>
    (inv.method === GENERIC_INVOKE || inv.method === GENERIC_INVOKE_ASYNC) && inv.args.length === 3
      ? invokeGeneric(inv, next, methods)
      : next(inv);
};
