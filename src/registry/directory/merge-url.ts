import { Url } from "../../core/index.js";

/**
 * Provider settings that describe the provider's own server (threads, transport); a consumer
 * never inherits them (Java's `DefaultProviderURLMergeProcessor` removes them, with their
 * `default.` forms).
 */
const PROVIDER_ONLY_KEYS = [
  "threadname",
  "threadpool",
  "corethreads",
  "threads",
  "queues",
  "alive",
  "transporter",
];
const PROVIDER_ONLY = new Set([...PROVIDER_ONLY_KEYS, ...PROVIDER_ONLY_KEYS.map((k) => `default.${k}`)]);

/** Consumer parameters that describe the consumer process, not settings for the call. */
const CONSUMER_DROPPED = new Set(["release", "dubbo", "methods", "timestamp", "tag"]);
/** Consumer parameters dropped when the provider has them (the provider's identity wins). */
const PROVIDER_IDENTITY = new Set(["group", "version", "generic"]);

export const REMOTE_APPLICATION_KEY = "remote.application";

/** Lists of both sides joined, provider's first, when both have one. */
const JOINED_KEYS = new Set(["reference.filter", "invoker.listener"]);

/** What a consumer URL contributes to every provider merged with it (computed once per consumer). */
interface ConsumerSide {
  /** The consumer's parameters minus those describing the consumer process. */
  readonly params: ReadonlyMap<string, string>;
  /**
   * `default.x` of a dropped consumer key `x`: the merged map still holds it, so the `Url`
   * constructor's mirroring would give `x` this value where the provider has no `x` of its own.
   */
  readonly mirrored: ReadonlyMap<string, string>;
}

const consumerSides = new WeakMap<Url, ConsumerSide>();

function consumerSideOf(consumer: Url): ConsumerSide {
  let side = consumerSides.get(consumer);
  if (side === undefined) {
    const params = new Map<string, string>();
    for (const [k, v] of consumer.params) if (!CONSUMER_DROPPED.has(k)) params.set(k, v);
    const mirrored = new Map<string, string>();
    for (const key of CONSUMER_DROPPED) {
      const value = consumer.get(`default.${key}`);
      if (value !== undefined) mirrored.set(key, value);
    }
    side = { params, mirrored };
    consumerSides.set(consumer, side);
  }
  return side;
}

/**
 * The merged parameters of one provider, read through rather than copied: each key is answered
 * from the consumer's side or the provider's parsed map by the merge rules, so a directory of
 * 10 000 providers holds each provider's parameters once. Iterating builds the merged map (for
 * `toString`, defaults, rules), which is rare next to `get`.
 */
class MergedParams implements ReadonlyMap<string, string> {
  readonly #provider: ReadonlyMap<string, string>;
  readonly #consumer: ConsumerSide;

  constructor(provider: ReadonlyMap<string, string>, consumer: ConsumerSide) {
    this.#provider = provider;
    this.#consumer = consumer;
  }

  get(key: string): string | undefined {
    const provider = this.#provider;
    if (key === REMOTE_APPLICATION_KEY) {
      const application = provider.get("application");
      if (application !== undefined) return application;
    }
    const local = this.#consumer.params.get(key);
    if (JOINED_KEYS.has(key)) {
      const remote = provider.get(key);
      if (remote !== undefined && remote !== "" && local !== undefined && local !== "") {
        return `${remote},${local}`;
      }
    }
    if (local !== undefined && !(PROVIDER_IDENTITY.has(key) && provider.has(key))) return local;
    if (PROVIDER_ONLY.has(key)) return undefined;
    return provider.get(key) ?? this.#consumer.mirrored.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get size(): number {
    return this.#merged().size;
  }

  entries(): MapIterator<[string, string]> {
    return this.#merged().entries();
  }

  keys(): MapIterator<string> {
    return this.#merged().keys();
  }

  values(): MapIterator<string> {
    return this.#merged().values();
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, key: string, map: ReadonlyMap<string, string>) => void): void {
    for (const [key, value] of this.#merged()) callback(value, key, this);
  }

  /** Every key `get` answers, as one map. */
  #merged(): Map<string, string> {
    const merged = new Map<string, string>();
    for (const key of this.#provider.keys()) if (!PROVIDER_ONLY.has(key)) merged.set(key, "");
    for (const key of this.#consumer.params.keys()) merged.set(key, "");
    for (const key of this.#consumer.mirrored.keys()) merged.set(key, "");
    merged.set(REMOTE_APPLICATION_KEY, "");
    for (const key of merged.keys()) {
      const value = this.get(key);
      if (value === undefined) merged.delete(key);
      else merged.set(key, value);
    }
    return merged;
  }
}

/**
 * The URL a consumer calls one provider with (Java's `DefaultProviderURLMergeProcessor.mergeUrl`):
 * the provider's registered parameters are the defaults (minus its thread-pool and transport
 * settings), the consumer's parameters override them (except group, version and generic the
 * provider has, and the consumer's release/dubbo/methods/timestamp/tag), `remote.application`
 * names the provider's application, and `reference.filter`/`invoker.listener` lists of both sides
 * are joined. Protocol, host, port and path stay the provider's. The parameters are a view over
 * both URLs' maps (see `MergedParams`), not a copy.
 */
export function mergeProviderUrl(provider: Url, consumer: Url): Url {
  // The provider's protocol, credentials, host, port and path, read from the provider itself.
  return Url.over(provider, new MergedParams(provider.params, consumerSideOf(consumer)));
}

/**
 * The reference's URL with the providers' settings it lacks (Java's `RegistryDirectory.mergeUrl`,
 * `addParametersIfAbsent` of each merged provider URL into the directory URL): the first provider
 * that has a key gives it, and the provider's `tag` never becomes the reference's own (Java issue
 * 9922), since the tag router reads it there.
 */
export function withProviderDefaults(referenceUrl: Url, mergedProviders: readonly Url[]): Url {
  const defaults = new Map<string, string>();
  for (const provider of mergedProviders) {
    for (const [key, value] of provider.params) {
      if (key !== "tag" && !defaults.has(key)) defaults.set(key, value);
    }
  }
  return referenceUrl.withDefaults(Object.fromEntries(defaults));
}
