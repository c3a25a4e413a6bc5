import {
  Code,
  consoleLogger,
  DEFAULT_DYNAMIC,
  DEFAULT_REGISTRY_FILE_CACHE,
  RpcError,
  Url,
} from "../core/index.js";
import type { MonitorEvents, RegistryOperated } from "../monitor/index.js";
import type { ListChange, NotifyListener, Registry, RegistryLogger } from "./registry.js";
import { ANY_VALUE, EMPTY_PROTOCOL, REGISTRY_LOG } from "./registry.js";
import { RegistryCacheFile, registryCachePath } from "./registry-cache.js";
import { categoryOf, isMatch } from "./url-match.js";

export interface RegistryOptions {
  readonly logger?: RegistryLogger;
  /** The application's monitor stream, told of every notified list. */
  readonly monitor?: MonitorEvents;
}

/** Not a category: the URL is not one the subscription wants. */
const NOT_MATCHED = "";

interface Subscription {
  readonly url: Url;
  readonly listeners: Set<NotifyListener>;
}

/**
 * Bookkeeping every registry shares (Java's `AbstractRegistry`): what this process registered and
 * subscribed, the last lists notified per subscription, and the local cache file of those lists.
 * Subclasses do the remote work; this class never talks to a server.
 */
export abstract class AbstractRegistry implements Registry {
  readonly url: Url;
  protected readonly logger: RegistryLogger;
  readonly #monitor: MonitorEvents | undefined;
  readonly #registered = new Map<string, Url>();
  readonly #subscribed = new Map<string, Subscription>();
  /** service key → the keys of its subscriptions, so a save reads only that service's lists. */
  readonly #subscriptionsByService = new Map<string, Set<string>>();
  /** subscription URL → category → the last full list notified. */
  readonly #notified = new Map<string, Map<string, readonly Url[]>>();
  readonly #cache: RegistryCacheFile | undefined;
  /** subscription URL → what each notified URL matched (see `#categoriesOf`). */
  readonly #categories = new Map<string, WeakMap<Url, string>>();
  #destroyed = false;

  constructor(url: Url, options: RegistryOptions = {}) {
    this.url = url;
    this.logger = options.logger ?? consoleLogger;
    this.#monitor = options.monitor;
    this.#cache = url.boolean("file.cache", DEFAULT_REGISTRY_FILE_CACHE)
      ? new RegistryCacheFile({
          file: registryCachePath(url),
          sync: url.boolean("save.file", false),
          logger: this.logger,
        })
      : undefined;
  }

  abstract isAvailable(): boolean;

  /**
   * Tells the monitor how a register or subscribe went (Java 3's registry metrics); public for the
   * application-level instance registration that writes through this registry.
   */
  reportOperation(operation: RegistryOperated["operation"], service: string, succeeded: boolean): void {
    if (this.#monitor?.hasListeners("registryOperated")) {
      this.#monitor.emit("registryOperated", { registry: this.url.address, operation, service, succeeded });
    }
  }

  /** The cache file in use, or undefined with `file.cache=false`. */
  get cacheFile(): RegistryCacheFile | undefined {
    return this.#cache;
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  registered(): Url[] {
    return [...this.#registered.values()];
  }

  /** Every subscription URL with its listeners. */
  subscribed(): Array<{ url: Url; listeners: NotifyListener[] }> {
    return [...this.#subscribed.values()].map((s) => ({ url: s.url, listeners: [...s.listeners] }));
  }

  /** The last lists notified for a subscription URL, per category. */
  notified(url: Url): ReadonlyMap<string, readonly Url[]> {
    return this.#notified.get(url.toFullString()) ?? new Map();
  }

  async register(url: Url): Promise<void> {
    this.assertUsable("register", url);
    this.#registered.set(url.toFullString(), url);
  }

  async unregister(url: Url): Promise<void> {
    this.assertUsable("unregister", url);
    this.#registered.delete(url.toFullString());
  }

  async subscribe(url: Url, listener: NotifyListener): Promise<void> {
    this.assertUsable("subscribe", url);
    if (typeof listener !== "function") {
      throw new RpcError(`subscribe to ${url.serviceKey} needs a listener function`, Code.InvalidArgument);
    }
    const key = url.toFullString();
    let subscription = this.#subscribed.get(key);
    if (subscription === undefined) {
      subscription = { url, listeners: new Set() };
      this.#subscribed.set(key, subscription);
      let keys = this.#subscriptionsByService.get(url.serviceKey);
      if (keys === undefined) {
        keys = new Set();
        this.#subscriptionsByService.set(url.serviceKey, keys);
      }
      keys.add(key);
    }
    subscription.listeners.add(listener);
  }

  async unsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    this.assertUsable("unsubscribe", url);
    const key = url.toFullString();
    const subscription = this.#subscribed.get(key);
    if (subscription === undefined) return;
    subscription.listeners.delete(listener);
    if (subscription.listeners.size === 0) {
      this.#subscribed.delete(key);
      this.#notified.delete(key);
      this.#categories.delete(key);
      const keys = this.#subscriptionsByService.get(url.serviceKey);
      keys?.delete(key);
      if (keys?.size === 0) this.#subscriptionsByService.delete(url.serviceKey);
    }
  }

  /** Default lookup: what the last notifications said (subclasses ask the server). */
  async lookup(url: Url): Promise<Url[]> {
    const out: Url[] = [];
    for (const urls of this.notified(url).values())
      for (const u of urls) if (u.protocol !== EMPTY_PROTOCOL) out.push(u);
    return out;
  }

  /**
   * Delivers lists to one listener (Java's `AbstractRegistry.notify`): keeps only the URLs the
   * subscription matches, groups them by category, records each category's full list, calls the
   * listener once with every category of this batch, and updates the cache file. A listener's
   * exception propagates (the failback layer retries it).
   */
  protected notify(url: Url, listener: NotifyListener, urls: readonly Url[]): void {
    if (urls.length === 0 && url.serviceInterface !== ANY_VALUE) {
      this.logger.warn(`ignoring an empty notification for ${url.serviceKey}`);
      return;
    }
    const key = url.toFullString();
    const categories = this.#categoriesOf(key);
    const byCategory = new Map<string, Url[]>();
    for (const u of urls) {
      const category = matchedCategory(categories, url, u);
      if (category === NOT_MATCHED) continue;
      let list = byCategory.get(category);
      if (list === undefined) {
        list = [];
        byCategory.set(category, list);
      }
      list.push(u);
    }
    if (byCategory.size === 0) return;
    let notified = this.#notified.get(key);
    if (notified === undefined) {
      notified = new Map();
      this.#notified.set(key, notified);
    }
    const batch: Url[] = [];
    const monitor = this.#monitor?.hasListeners("registryNotified") ? this.#monitor : undefined;
    for (const [category, list] of byCategory) {
      notified.set(category, list);
      batch.push(...list);
      monitor?.emit("registryNotified", {
        registry: this.url.address,
        service: url.serviceInterface,
        category,
        urls: list.filter((u) => u.protocol !== EMPTY_PROTOCOL).length,
      });
    }
    this.#saveCache(url, notified);
    listener(batch);
  }

  /**
   * Delivers a change of one category's list (see `ListChange`): to a listener that takes changes,
   * as the change, when the list last notified for the category is `change.before` element for
   * element and every added URL matches into that category; otherwise as the full list
   * `change.after` through `notify`. Recorded and cached as the full list would be.
   */
  protected notifyChange(url: Url, listener: NotifyListener, change: ListChange): void {
    const changed = listener.changed;
    const key = url.toFullString();
    const notified = this.#notified.get(key);
    const last = notified?.get(change.category);
    if (
      changed === undefined ||
      notified === undefined ||
      last === undefined ||
      !sameUrls(last, change.before) ||
      !this.#allIn(url, change.category, change.added)
    ) {
      this.notify(url, listener, change.after);
      return;
    }
    notified.set(change.category, change.after);
    if (this.#monitor?.hasListeners("registryNotified")) {
      this.#monitor.emit("registryNotified", {
        registry: this.url.address,
        service: url.serviceInterface,
        category: change.category,
        urls: change.after.length,
      });
    }
    this.#saveCache(url, notified);
    changed(change);
  }

  /** Whether every one of `urls` matches `subscription` and belongs to `category`. */
  #allIn(subscription: Url, category: string, urls: readonly Url[]): boolean {
    const categories = this.#categoriesOf(subscription.toFullString());
    for (const u of urls) if (matchedCategory(categories, subscription, u) !== category) return false;
    return true;
  }

  /**
   * The category of each URL notified to one subscription, or NOT_MATCHED, remembered per `Url`
   * object: a registry that hands the same objects for unchanged entries (ZooKeeper's child
   * cache) has 10 000 of them matched once, not once per change.
   */
  #categoriesOf(subscriptionKey: string): WeakMap<Url, string> {
    let categories = this.#categories.get(subscriptionKey);
    if (categories === undefined) {
      categories = new WeakMap();
      this.#categories.set(subscriptionKey, categories);
    }
    return categories;
  }

  /**
   * Reports a remote operation that failed: a warning on a live registry; only a debug record while
   * the registry is unreachable, because that failure is expected and its connection loss was
   * already logged once (by the registry's session).
   */
  protected reportFailure(message: string, error: unknown): void {
    if (this.isAvailable()) {
      this.logger.warn(message, error);
    } else {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.debug(REGISTRY_LOG, `${message}: ${reason}`);
    }
  }

  /** The URLs the cache file holds for a subscription, or none. */
  protected cachedUrls(url: Url): Url[] {
    return this.#cache?.urls(url.serviceKey, Url.parse) ?? [];
  }

  /** Unregisters dynamic URLs and drops subscriptions, remotely through the subclass, then locally. */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    for (const url of this.registered()) {
      if (!url.boolean("dynamic", DEFAULT_DYNAMIC)) continue;
      try {
        await this.unregister(url);
      } catch (error) {
        this.reportFailure(`destroy: could not unregister ${url.toString()} from ${this.url.address}`, error);
      }
    }
    for (const { url, listeners } of this.subscribed()) {
      for (const listener of listeners) {
        try {
          await this.unsubscribe(url, listener);
        } catch (error) {
          this.reportFailure(
            `destroy: could not unsubscribe ${url.serviceKey} from ${this.url.address}`,
            error,
          );
        }
      }
    }
    this.#destroyed = true;
    await this.#cache?.flush();
  }

  protected assertUsable(operation: string, url: Url): void {
    if (!(url instanceof Url)) {
      throw new RpcError(`${operation} needs a Url (got ${String(url)})`, Code.InvalidArgument);
    }
    if (this.#destroyed) {
      throw new RpcError(
        `cannot ${operation} ${url.serviceKey}: registry ${this.url.address} is destroyed`,
        Code.FailedPrecondition,
      );
    }
  }

  /**
   * One cache entry per service, shared by its subscriptions (the interface level's, and the rules
   * only one of Dubbo 3's application-level discovery): each category from the subscription that
   * lists it, so one subscription's notify never drops another's providers.
   */
  #saveCache(url: Url, notified: ReadonlyMap<string, readonly Url[]>): void {
    if (this.#cache === undefined) return;
    const byCategory = new Map(notified);
    for (const key of this.#subscriptionsByService.get(url.serviceKey) ?? []) {
      for (const [category, list] of this.#notified.get(key) ?? []) {
        if (!byCategory.has(category)) byCategory.set(category, list);
      }
    }
    this.#cache.set(url.serviceKey, [...byCategory.values()].flat());
  }
}

/** `url`'s category under `subscription`, or NOT_MATCHED, remembered in `categories`. */
function matchedCategory(categories: WeakMap<Url, string>, subscription: Url, url: Url): string {
  let category = categories.get(url);
  if (category === undefined) {
    category = isMatch(subscription, url) ? categoryOf(url) : NOT_MATCHED;
    categories.set(url, category);
  }
  return category;
}

/** Whether two lists hold the same `Url` objects in the same order (pointer compares, no hashing). */
function sameUrls(a: readonly Url[], b: readonly Url[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
