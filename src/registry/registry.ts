import type { Logger, Url } from "../core/index.js";

/**
 * Receives the registry's view of what a subscription matches. Every call carries the complete,
 * current list of each category it contains (`providers`, `routers`, `configurators`,
 * `consumers`); a category absent from a call is unchanged, and a category that became empty
 * arrives as one `empty://` URL carrying `category=<name>` (Java's `toUrlsWithEmpty`).
 * As in Java, the first lists are delivered synchronously during `subscribe`, before its promise
 * resolves; later changes arrive whenever the registry sees them. A listener that throws is
 * called again later with the latest lists (failback).
 */
export type NotifyListener = ((urls: readonly Url[]) => void) & {
  /**
   * Optional: takes a change of one category's list in place of its full list, so a listener
   * over 10 000 providers pays for the one that changed. A registry calls it only when `before`
   * is, element for element, the list it last notified for that category and every added URL
   * belongs to it; otherwise (and always without this method) the full list arrives as above.
   */
  readonly changed?: (change: ListChange) => void;
};

/**
 * One category's list changed in place: `after` is `before` with the `removed` URLs at
 * `before[start, start + removed.length)` replaced by the `added` ones. Neither list is empty
 * (a category that empties or fills is notified in full, with its `empty://`).
 */
export interface ListChange {
  readonly category: string;
  readonly before: readonly Url[];
  readonly after: readonly Url[];
  readonly start: number;
  readonly removed: readonly Url[];
  readonly added: readonly Url[];
}

/**
 * A service registry (Dubbo's `RegistryService`). URLs are the configuration bus: providers
 * register `dubbo://…?side=provider`, consumers register `consumer://…?category=consumers` and
 * subscribe with `category=providers,configurators,routers`.
 */
export interface Registry {
  /** The registry's own URL, e.g. `zookeeper://127.0.0.1:2181?backup=…`. */
  readonly url: Url;
  /**
   * `instance` when `subscribe` finds providers through application-level discovery (Java's
   * `ServiceDiscoveryRegistry`); absent for interface-level registries. Java's directory metrics
   * carry it as their `register_mode` label.
   */
  readonly registerMode?: "instance" | undefined;
  /** Publishes `url` (ephemeral unless `dynamic=false`); remembered and re-published after a loss. */
  register(url: Url): Promise<void>;
  unregister(url: Url): Promise<void>;
  /**
   * Starts delivering the lists `url` matches (interface, `category`, group, version, classifier;
   * interface `*` means every service). The first lists reach `listener` before this resolves.
   * With `check=true` (the default) a failure rejects; with `check=false`, or when the local cache
   * file has lists for this service, it is retried in the background instead.
   */
  subscribe(url: Url, listener: NotifyListener): Promise<void>;
  unsubscribe(url: Url, listener: NotifyListener): Promise<void>;
  /** The URLs `url` matches right now, without subscribing (no `empty://` placeholders). */
  lookup(url: Url): Promise<Url[]>;
  /** Whether the registry is connected now. */
  isAvailable(): boolean;
  /** Unregisters every dynamic URL, drops every subscription, and releases connections and timers. */
  destroy(): Promise<void>;
}

/**
 * Where a registry reports what it recovered from (failed retries, unreadable nodes, cache errors)
 * and what an operator watches (connection lost and restored, providers added and removed): the
 * application's `Logger`. Registry `debug`/`trace` records use the category `registry`.
 */
export type RegistryLogger = Logger;

/** The category of the registry layer's `debug`/`trace` records (`DUBBO_TRACE=registry`). */
export const REGISTRY_LOG = "registry";

/** URL parameter keys and values of the registry layer (Java's names). */
export const CATEGORY_KEY = "category";
/** Also the category of a URL that names none (Java's `DEFAULT_CATEGORY`). */
export const PROVIDERS_CATEGORY = "providers";
export const CONSUMERS_CATEGORY = "consumers";
export const ROUTERS_CATEGORY = "routers";
export const CONFIGURATORS_CATEGORY = "configurators";
export const ALL_CATEGORIES = [
  PROVIDERS_CATEGORY,
  CONSUMERS_CATEGORY,
  ROUTERS_CATEGORY,
  CONFIGURATORS_CATEGORY,
] as const;
/** The protocol of the placeholder that says "this category is now empty". */
export const EMPTY_PROTOCOL = "empty";
export const CONSUMER_PROTOCOL = "consumer";
export const ANY_VALUE = "*";
