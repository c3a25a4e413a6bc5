import type { JavaType } from "../../core/index.js";

/**
 * Dubbo's `Merger` extension point as data: merges the results of several groups into one.
 * `results` holds one value per group that answered (at least two), in group order; any may be
 * null. A merger may name the Java classes it serves (`forTypes`), so `merger=true` picks it by the
 * method's return type as Java's `MergerFactory` does for a custom `Merger<MyResult>`.
 */
export interface Merger {
  merge(results: readonly unknown[]): unknown;
  /** Java class names (`JavaType.name`) this merger is chosen for by return type. */
  readonly forTypes?: readonly string[];
}

/** The URL/method parameter naming the merger (`merger`, `sayHello.merger`). */
export const MERGER_KEY = "merger";

/** Java's `ConfigUtils.isEmpty`: no merger configured, so mergeable calls a single group. */
export function isNoMergerSetting(value: string | undefined): boolean {
  if (value === undefined || value === "") return true;
  const lower = value.toLowerCase();
  return lower === "false" || lower === "0" || lower === "null" || lower === "n/a";
}

/** Java's `ConfigUtils.isDefault`: `true` or `default` picks the merger by return type. */
export function isDefaultMergerSetting(value: string): boolean {
  const lower = value.toLowerCase();
  return lower === "true" || lower === "default";
}

/** A short Java-ish description of a return type for messages. */
export function describeType(type: JavaType | undefined): string {
  return type === undefined ? "undeclared" : type.name;
}
