import { createHash } from "node:crypto";
import {
  DEFAULT_HASH_ARGUMENTS,
  DEFAULT_HASH_NODES,
  type Invocation,
  type Invoker,
  splitList,
  type Url,
} from "../../core/index.js";
import type { LoadBalance } from "../contracts.js";

/**
 * Dubbo's `consistenthash` (ketama): each provider gets `hash.nodes` (default 160) points on a
 * 32-bit ring, four per MD5 digest of `host:port` + replica number, each point being four digest
 * bytes read little-endian. A call hashes the arguments named by `hash.arguments` (default "0",
 * concatenated as Java's `StringBuilder.append` prints them) and takes the first point at or after
 * that hash, wrapping around. The ring is rebuilt only when the provider list changes, so the same
 * arguments reach the same provider Java Dubbo would pick for the same list.
 */
export function createConsistentHashLoadBalance(): LoadBalance {
  const selectors = new Map<string, Selector>();
  return {
    select(invokers: readonly Invoker[], url: Url, inv: Invocation): Invoker {
      const first = invokers[0]!;
      const key = `${first.url.serviceKey}.${inv.method}`;
      let selector = selectors.get(key);
      if (selector === undefined || !selector.matches(invokers)) {
        selector = new Selector(invokers, settingsUrl(url, first.url, inv.method), inv.method);
        selectors.set(key, selector);
      }
      return selector.select(inv);
    },
  };
}

/** The consumer's `hash.*` settings win; otherwise the provider's (Java reads the provider URL). */
function settingsUrl(consumer: Url, provider: Url, method: string): Url {
  return consumer.methodGet(method, "hash.nodes") !== undefined ||
    consumer.methodGet(method, "hash.arguments") !== undefined
    ? consumer
    : provider;
}

class Selector {
  readonly #invokers: readonly Invoker[];
  readonly #points: Uint32Array;
  readonly #owners: Invoker[];
  readonly #argumentIndexes: number[];

  constructor(invokers: readonly Invoker[], url: Url, method: string) {
    this.#invokers = invokers;
    const replicas = url.methodNumber(method, "hash.nodes", DEFAULT_HASH_NODES);
    const indexes = splitList(url.methodString(method, "hash.arguments", DEFAULT_HASH_ARGUMENTS));
    this.#argumentIndexes = indexes.map((s) => Number.parseInt(s, 10)).filter((n) => Number.isInteger(n));
    // A later provider landing on an existing point replaces it, as a TreeMap put does.
    const ring = new Map<number, Invoker>();
    for (const invoker of invokers) {
      const address = invoker.url.address;
      for (let i = 0; i < Math.trunc(replicas / 4); i++) {
        const digest = md5(`${address}${i}`);
        for (let h = 0; h < 4; h++) ring.set(digest.readUInt32LE(h * 4), invoker);
      }
    }
    const points = Uint32Array.from(ring.keys()).sort();
    this.#points = points;
    this.#owners = Array.from(points, (p) => ring.get(p)!);
  }

  /** True when `invokers` holds the same providers in the same order as the ring was built from. */
  matches(invokers: readonly Invoker[]): boolean {
    const own = this.#invokers;
    if (own === invokers) return true;
    if (own.length !== invokers.length) return false;
    for (let i = 0; i < own.length; i++) if (own[i] !== invokers[i]) return false;
    return true;
  }

  select(inv: Invocation): Invoker {
    const hash = md5(argumentKey(inv, this.#argumentIndexes)).readUInt32LE(0);
    return this.#owners[ceilingIndex(this.#points, hash)] ?? this.#owners[0]!;
  }
}

/** Index of the first point ≥ hash, or 0 when there is none (the ring wraps). */
function ceilingIndex(points: Uint32Array, hash: number): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (points[mid]! < hash) low = mid + 1;
    else high = mid;
  }
  return low === points.length ? 0 : low;
}

function md5(text: string): Buffer {
  return createHash("md5").update(text, "utf8").digest();
}

/** The hash key Java builds: the chosen arguments appended as `String.valueOf` prints them. */
function argumentKey(inv: Invocation, indexes: readonly number[]): string {
  let key = "";
  for (const i of indexes) {
    if (i >= 0 && i < inv.args.length) key += javaString(inv.args[i], inv.parameterTypes[i]?.kind);
  }
  return key;
}

function javaString(value: unknown, kind: string | undefined): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") {
    // Java prints a double 1 as "1.0".
    if ((kind === "double" || kind === "float") && Number.isInteger(value)) return `${value}.0`;
    return String(value);
  }
  if (typeof value === "object" && !(value instanceof Date)) return JSON.stringify(value) ?? "null";
  return String(value);
}
