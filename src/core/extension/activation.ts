import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import type { Url } from "../url/url.js";
import type { ExtensionPoint } from "./extension-point.js";

/**
 * Dubbo's `@Activate` as data. An extension that declares an activation switches itself on for its
 * side (unless removed); one without an activation runs only where a URL names it.
 */
export interface Activation {
  /** Which side it activates on (Java's `group`). */
  readonly side: "consumer" | "provider" | "both";
  /** Lower runs first (outermost). Default 0; ties keep registration order. */
  readonly order?: number;
  /**
   * URL keys that switch it on (Java's `value`): `"cache"` activates when the URL has a non-empty
   * `cache` (or `<prefix>.cache`, e.g. `sayHello.cache`); `"cache:lru"` needs that exact value.
   * Absent or empty: always on.
   */
  readonly keys?: readonly string[];
}

export type ActivationSide = "consumer" | "provider";

export interface ActivatedExtension<T> {
  readonly name: string;
  readonly extension: T;
}

/** The placeholder for "all activated defaults here" in a filter list (`"mine,default,other"`). */
export const DEFAULT_EXTENSIONS = "default";
const REMOVE_PREFIX = "-";

/** Java's `ConfigUtils.isNotEmpty`: these values count as "not set" for key activation. */
const EMPTY_LIKE = new Set(["", "false", "0", "null", "N/A"]);

function isActive(keys: readonly string[] | undefined, url: Url): boolean {
  if (keys === undefined || keys.length === 0) return true;
  for (const spec of keys) {
    const colon = spec.indexOf(":");
    const key = colon >= 0 ? spec.slice(0, colon) : spec;
    const wanted = colon >= 0 ? spec.slice(colon + 1) : undefined;
    for (const [k, v] of url.params) {
      if (k !== key && !k.endsWith(`.${key}`)) continue;
      if (wanted === undefined ? !EMPTY_LIKE.has(v) : v === wanted) return true;
    }
  }
  return false;
}

export interface ActivateOptions<T> {
  /** The names a URL lists (e.g. `url.list("service.filter")`): `name`, `-name`, `default`, `-default`. */
  readonly names: readonly string[];
  readonly side: ActivationSide;
  /** The URL whose parameters switch key-activated extensions on. */
  readonly url: Url;
  /** The setting the names came from, for error messages (e.g. `service.filter`). */
  readonly setting: string;
  readonly activationOf: (extension: T) => Activation | undefined;
}

/**
 * The ordered active extensions for one side, as Java's `ExtensionLoader.getActivateExtension`:
 * the activated defaults (sorted by order) plus the explicitly named ones, which go after the
 * defaults unless they precede a `default` placeholder. `-name` removes one; `-default` removes
 * every default. An unknown name (removals included) throws, listing what is registered, so a typo
 * fails at configuration time.
 */
export function activateExtensions<T>(
  point: ExtensionPoint<T>,
  options: ActivateOptions<T>,
): ActivatedExtension<T>[] {
  const { names, side, url, setting, activationOf } = options;
  assertKnownNames(point, names, `${setting} of ${url.serviceKey}`);
  const listed = new Set(names);
  const activated: Array<ActivatedExtension<T> & { readonly order: number; readonly seq: number }> = [];
  if (!listed.has(REMOVE_PREFIX + DEFAULT_EXTENSIONS)) {
    let seq = 0;
    for (const [name, extension] of point.entries()) {
      seq++;
      const activation = activationOf(extension);
      if (activation === undefined) continue;
      if (activation.side !== "both" && activation.side !== side) continue;
      if (listed.has(name) || listed.has(REMOVE_PREFIX + name)) continue;
      if (!isActive(activation.keys, url)) continue;
      activated.push({ name, extension: point.get(name), order: activation.order ?? 0, seq });
    }
    activated.sort((a, b) => a.order - b.order || a.seq - b.seq);
  }
  const result: ActivatedExtension<T>[] = activated.map(({ name, extension }) => ({ name, extension }));
  let pending: ActivatedExtension<T>[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (name.startsWith(REMOVE_PREFIX) || listed.has(REMOVE_PREFIX + name)) continue;
    if (name === DEFAULT_EXTENSIONS) {
      result.unshift(...pending);
      pending = [];
    } else if (!seen.has(name)) {
      seen.add(name);
      pending.push({ name, extension: point.get(name) });
    }
  }
  result.push(...pending);
  return result;
}

/**
 * Throws unless every entry of a filter-style list names a registered extension (or `default`),
 * so a typo fails at configuration time. `setting` names where the list came from.
 */
export function assertKnownNames<T>(
  point: ExtensionPoint<T>,
  names: readonly string[],
  setting: string,
): void {
  for (const raw of names) {
    const name =
      typeof raw === "string" && raw.startsWith(REMOVE_PREFIX) ? raw.slice(REMOVE_PREFIX.length) : raw;
    if (name === DEFAULT_EXTENSIONS) continue;
    if (typeof name !== "string" || name === "" || !point.has(name)) {
      throw new RpcError(
        `${setting}: "${String(raw)}" names no ${point.kind} (registered: ${point.names().join(", ") || "none"}; ` +
          `"default" stands for the activated defaults, "-name" removes one, "-default" removes them all)`,
        Code.InvalidArgument,
      );
    }
  }
}
