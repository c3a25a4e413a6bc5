import { Code, type ExtensionPoint, type JavaType, RpcError } from "../../core/index.js";
import { arrayMerger } from "./builtin-mergers.js";
import { describeType, isDefaultMergerSetting, type Merger } from "./merger.js";

/** Where a merge happens, for error messages. */
export interface MergeSite {
  readonly serviceKey: string;
  readonly method: string;
}

/**
 * The merger a `merger` setting names: `true`/`default` → by the method's return type
 * ({@link mergerForType}); otherwise the registered merger of that name (unknown names fail,
 * listing what is registered).
 */
export function resolveMerger(
  point: ExtensionPoint<Merger>,
  setting: string,
  returnType: JavaType | undefined,
  results: readonly unknown[],
  site: MergeSite,
): Merger {
  if (!isDefaultMergerSetting(setting)) {
    if (!point.has(setting)) {
      throw new RpcError(
        `merger=${setting} on ${site.serviceKey} method ${site.method} names no merger (registered: ${point.names().join(", ") || "none"})`,
        Code.FailedPrecondition,
      );
    }
    return point.get(setting);
  }
  const merger = mergerForType(point, returnType, results);
  if (merger === undefined) {
    throw new RpcError(
      `there is no merger for the results of ${site.serviceKey} method ${site.method} (return type ${describeType(returnType)}); set merger=<name> (registered: ${point.names().join(", ")}) or merger=.<method>`,
      Code.FailedPrecondition,
    );
  }
  return merger;
}

/**
 * Java's `MergerFactory.getMerger`: a registered merger declaring the exact return type first; then
 * list, set and map by kind; arrays by element (`int[]` → `int`, object arrays concatenate).
 * With no declared return type (generic calls) the first result's shape decides.
 */
export function mergerForType(
  point: ExtensionPoint<Merger>,
  returnType: JavaType | undefined,
  results: readonly unknown[],
): Merger | undefined {
  if (returnType !== undefined) {
    for (const [, merger] of point.entries()) {
      if (merger.forTypes?.includes(returnType.name)) return merger;
    }
  }
  const named = (name: string): Merger | undefined => (point.has(name) ? point.get(name) : undefined);
  switch (returnType?.kind) {
    case "list":
      return named("list");
    case "set":
      return named("set");
    case "map":
      return named("map");
    case "bytes":
      return named("byte");
    case "array": {
      const element = returnType.element;
      return element?.primitive === true ? named(element.kind) : arrayMerger;
    }
    case undefined:
      return mergerForShape(
        point,
        results.find((r) => r !== null && r !== undefined),
      );
    default:
      return undefined;
  }
}

function mergerForShape(point: ExtensionPoint<Merger>, sample: unknown): Merger | undefined {
  const named = (name: string): Merger | undefined => (point.has(name) ? point.get(name) : undefined);
  if (Array.isArray(sample)) return named("list");
  if (ArrayBuffer.isView(sample)) return arrayMerger;
  if (sample instanceof Set) return named("set");
  if (sample instanceof Map) return named("map");
  return undefined;
}

/**
 * `merger=.methodName`: calls that method on the first result with each other result in turn, as
 * Java does. When the method returns a value of the result's own kind (Java: a return type
 * assignable from the result's class) that value becomes the result (`.concat`); otherwise the
 * method is called for its effect on the first result (`.push`, `.addAll`).
 */
export function mergeWithMethod(methodName: string, results: readonly unknown[], site: MergeSite): unknown {
  let result = results[0];
  const method =
    result !== null && result !== undefined ? (result as Record<string, unknown>)[methodName] : undefined;
  if (typeof method !== "function") {
    throw new RpcError(
      `cannot merge the results of ${site.serviceKey} method ${site.method}: merger=.${methodName} names no method of the result (a ${result === null ? "null" : typeof result}); use a method the result has, e.g. merger=.concat for arrays`,
      Code.FailedPrecondition,
    );
  }
  for (const other of results.slice(1)) {
    const returned: unknown = (method as (this: unknown, arg: unknown) => unknown).call(result, other);
    if (sameKind(result, returned)) result = returned;
  }
  return result;
}

function sameKind(result: unknown, returned: unknown): boolean {
  if (returned === undefined || returned === null) return false;
  if (typeof result !== "object" || result === null) return typeof returned === typeof result;
  return typeof returned === "object" && Object.getPrototypeOf(returned) === Object.getPrototypeOf(result);
}
