import {
  type ExclusionReason,
  type NearMiss,
  type Router,
  type RouterFactory,
  routersFromRuleUrls,
  SnapshotDirectory,
} from "../../cluster/index.js";
import type { ExtensionPoint, Invoker, Protocol, Url } from "../../core/index.js";
import { consoleLogger } from "../../core/index.js";
import type { NotifyListener, Registry, RegistryLogger } from "../registry.js";
import {
  ANY_VALUE,
  CATEGORY_KEY,
  CONFIGURATORS_CATEGORY,
  PROVIDERS_CATEGORY,
  ROUTERS_CATEGORY,
} from "../registry.js";
import { categoryOf, isEmptyUrl } from "../url-match.js";
import {
  applyConfigurators,
  type Configurator,
  isDisabled,
  listParam,
  toConfigurators,
} from "./configurator.js";
import { mergeProviderUrl, withProviderDefaults } from "./merge-url.js";

/** Where a directory gets the protocol that speaks a provider's URL protocol (`dubbo`, `injvm`). */
export type ProtocolSource = Protocol | ((name: string) => Protocol | undefined);

export interface RegistryDirectoryOptions {
  /** The reference's consumer URL (`consumer://host/iface?application=…&side=consumer…`). */
  readonly consumerUrl: Url;
  readonly registry: Registry;
  /** Refers to each provider; one protocol, or a lookup by the provider URL's protocol. */
  readonly protocol: ProtocolSource;
  /** Router factories for the `routers` category (`condition`, `script`, `tag`, …). */
  readonly routerFactories?: ExtensionPoint<RouterFactory>;
  /** Routers every chain has (mock, tag), built by the caller from the consumer URL. */
  readonly builtinRouters?: readonly Router[];
  readonly logger?: RegistryLogger;
}

/** The categories a reference subscribes to (Java's `RegistryProtocol.toSubscribeUrl`). */
export const REFERENCE_CATEGORIES = `${PROVIDERS_CATEGORY},${CONFIGURATORS_CATEGORY},${ROUTERS_CATEGORY}`;

export function protocolFor(source: ProtocolSource, name: string): Protocol | undefined {
  if (typeof source === "function") return source(name);
  return source.name === name ? source : undefined;
}

/**
 * The providers of one reference as one registry sees them (Java's `RegistryDirectory`).
 *
 * Each notification carries full lists per category: `providers` replace the provider list,
 * `configurators` (`override://`, `absent://`) replace the rules applied to every provider URL,
 * `routers` (`condition://`, `route://`, `script://`, `tag://`) replace the rule routers; `empty://`
 * clears its category. A provider URL is merged with the consumer URL (the provider's settings are
 * the consumer's defaults), the rules are applied, and the result is referred through the protocol
 * (`check=false`: a provider that is down now is reconnected in the background). An invoker whose
 * URL did not change is reused; removed ones are destroyed after the new snapshot is in place.
 * Providers that are disabled or speak another protocol are reported by `excluded()`.
 *
 * The reference's own URL (`overriddenUrl`, Java's `overrideDirectoryUrl`) is rebuilt on every
 * refresh: the consumer URL with the rules applied, then every setting of the providers' merged
 * URLs it does not have yet (the first provider that has one wins), so a provider's registered
 * `retries`, `timeout` or `mock` reaches what the cluster reads, and a service-wide
 * `override://0.0.0.0/…?mock=force:return+null` or `timeout=` reaches the reference;
 * `onUrlChange` tells the reference to rebuild its cluster invoker.
 */
export class RegistryDirectory extends SnapshotDirectory {
  readonly registry: Registry;
  /** `consumerUrl` with `category=providers,configurators,routers`. */
  readonly subscribeUrl: Url;
  readonly #protocol: ProtocolSource;
  readonly #routerFactories: ExtensionPoint<RouterFactory> | undefined;
  readonly #builtinRouters: readonly Router[];
  readonly #logger: RegistryLogger;
  readonly #listener: NotifyListener = (urls) => this.notify(urls);
  /** undefined until the first providers list arrives. */
  #providerUrls: readonly Url[] | undefined;
  #configurators: readonly Configurator[] = [];
  #nearMisses: readonly NearMiss[] = [];
  #ruleRouters: readonly Router[] = [];
  #overriddenUrl: Url;
  /** The consumer URL with `check=false`, which every provider is referred with. */
  readonly #uncheckedUrl: Url;
  /** Invokers by the full string of the URL they were referred with. */
  #invokers = new Map<string, Invoker>();
  /** What each current provider URL resolved to under the current rules; cleared when they change. */
  #resolved = new Map<Url, Resolved>();
  #paramKeySets = new Map<string, string>();
  #running: Promise<void> | undefined;
  #dirty = false;
  readonly #providerWaiters = new Set<() => void>();
  readonly #urlListeners = new Set<(url: Url) => void>();
  #subscribed = false;

  constructor(options: RegistryDirectoryOptions) {
    super(options.consumerUrl, { routers: options.builtinRouters ?? [] }, options.logger);
    this.registry = options.registry;
    this.subscribeUrl = options.consumerUrl.withParams({ [CATEGORY_KEY]: REFERENCE_CATEGORIES });
    this.#protocol = options.protocol;
    this.#routerFactories = options.routerFactories;
    this.#builtinRouters = options.builtinRouters ?? [];
    this.#logger = options.logger ?? consoleLogger;
    this.#overriddenUrl = options.consumerUrl;
    this.#uncheckedUrl = options.consumerUrl.withParams({ check: "false" });
  }

  /** The consumer URL with the current `override://` rules applied (Java's `overrideDirectoryUrl`). */
  get overriddenUrl(): Url {
    return this.#overriddenUrl;
  }

  /**
   * While the registry lists no provider for this reference: the providers of the same interface
   * registered under another group or version (looked up once per change, for the no-provider
   * error). Empty otherwise.
   */
  nearMisses(): readonly NearMiss[] {
    return this.#nearMisses;
  }

  /** Calls `listener` whenever `overriddenUrl` changes; returns the function that stops it. */
  onUrlChange(listener: (url: Url) => void): () => void {
    this.#urlListeners.add(listener);
    return () => this.#urlListeners.delete(listener);
  }

  /**
   * Subscribes to the registry; resolves once the first lists (from the registry, or its cache
   * file) have been turned into invokers. Rejects as the registry's `subscribe` does.
   */
  async subscribe(): Promise<void> {
    await this.registry.subscribe(this.subscribeUrl, this.#listener);
    this.#subscribed = true;
    await this.settled();
  }

  /** Resolves when every notification received so far has been applied. */
  async settled(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  /**
   * Resolves true as soon as the directory has a provider, or false after `timeoutMs` (or when
   * destroyed). The timer does not keep the process alive.
   */
  waitForProviders(timeoutMs: number): Promise<boolean> {
    if (this.all().length > 0) return Promise.resolve(true);
    if (timeoutMs <= 0 || this.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#providerWaiters.delete(done);
        resolve(this.all().length > 0);
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.#providerWaiters.add(done);
    });
  }

  /** The registry listener: records the categories this call carries and refreshes the invokers. */
  notify(urls: readonly Url[]): void {
    if (this.destroyed) return;
    const byCategory = new Map<string, Url[]>();
    for (const url of urls) {
      const category = categoryOf(url);
      const list = byCategory.get(category) ?? [];
      if (!isEmptyUrl(url)) list.push(url);
      byCategory.set(category, list);
    }
    const configurators = byCategory.get(CONFIGURATORS_CATEGORY);
    if (configurators !== undefined) {
      this.#configurators = toConfigurators(configurators);
      this.#resolved = new Map();
      this.#paramKeySets = new Map();
    }
    const routers = byCategory.get(ROUTERS_CATEGORY);
    if (routers !== undefined) {
      this.#ruleRouters =
        this.#routerFactories === undefined
          ? this.#warnNoRouterFactories(routers)
          : routersFromRuleUrls(this.#routerFactories, routers, this.#logger);
    }
    const providers = byCategory.get(PROVIDERS_CATEGORY);
    if (providers !== undefined) this.#providerUrls = providers;
    this.#schedule();
  }

  override async destroy(): Promise<void> {
    if (this.destroyed) return;
    await super.destroy();
    if (this.#subscribed) {
      this.#subscribed = false;
      await this.registry.unsubscribe(this.subscribeUrl, this.#listener).catch((error: unknown) => {
        this.#logger.warn(
          `could not unsubscribe ${this.url.serviceKey} from ${this.registry.url.address}`,
          error,
        );
      });
    }
    await this.settled();
    const invokers = [...this.#invokers.values()];
    this.#invokers = new Map();
    await Promise.allSettled(invokers.map((i) => i.destroy()));
    for (const done of [...this.#providerWaiters]) done();
  }

  #warnNoRouterFactories(routers: readonly Url[]): Router[] {
    if (routers.length > 0) {
      this.#logger.warn(
        `${routers.length} router rule(s) for ${this.url.serviceKey} ignored: this directory has no router factories`,
      );
    }
    return [];
  }

  /**
   * The registry's providers of this interface in any group, version and classifier (only while
   * none matches, so the lookup costs nothing in normal operation; skipped while disconnected).
   */
  async #lookUpNearMisses(): Promise<readonly NearMiss[]> {
    if (!this.registry.isAvailable()) return [];
    const anyGroup = this.url.withParams({
      [CATEGORY_KEY]: PROVIDERS_CATEGORY,
      group: ANY_VALUE,
      version: ANY_VALUE,
      classifier: ANY_VALUE,
    });
    try {
      const urls = await this.registry.lookup(anyGroup);
      return urls.map((u) => ({ address: u.address, group: u.get("group"), version: u.get("version") }));
    } catch {
      return []; // only an explanation: a failed lookup leaves the error as it was
    }
  }

  /** The consumer URL with the rules applied, then the providers' settings where it has none. */
  #updateOverriddenUrl(mergedProviders: readonly Url[]): void {
    const configured = applyConfigurators(this.url, this.#configurators, this.url.host);
    const next = withProviderDefaults(configured, mergedProviders);
    if (next.equals(this.#overriddenUrl)) return;
    this.#overriddenUrl = next;
    for (const listener of [...this.#urlListeners]) {
      try {
        listener(next);
      } catch (error) {
        this.#logger.warn(`a URL listener of ${this.url.serviceKey} failed`, error);
      }
    }
  }

  #schedule(): void {
    if (this.#running !== undefined) {
      this.#dirty = true;
      return;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = undefined;
    });
  }

  async #loop(): Promise<void> {
    do {
      this.#dirty = false;
      try {
        await this.#refresh();
      } catch (error) {
        this.#logger.warn(`could not apply the provider list of ${this.url.serviceKey}`, error);
      }
    } while (this.#dirty && !this.destroyed);
  }

  /**
   * One record per change of the provider set: who came, who left, how many are left. Built from
   * the invokers referred and destroyed by this refresh, so a change costs what changed.
   */
  #logChanges(added: readonly Invoker[], removed: readonly Invoker[], now: number): void {
    const came = new Set(added.map((i) => i.url.address));
    const left = new Set(removed.map((i) => i.url.address));
    const changes = [
      ...[...came].filter((a) => !left.has(a)).map((a) => `+${a}`),
      ...[...left].filter((a) => !came.has(a)).map((a) => `-${a}`),
    ];
    if (changes.length === 0) return;
    const message = `providers of ${this.url.serviceKey}: ${changes.join(", ")} (${now} now)`;
    if (now === 0) this.#logger.warn(`${message}; calls fail until a provider registers`);
    else this.#logger.info(message);
  }

  /**
   * What one provider URL becomes under the current rules: merged with the consumer URL and the
   * configurators applied, or why it is left out. Remembered per provider `Url` object (the
   * registry hands the same object for an unchanged node) until the rules change.
   */
  #resolve(provider: Url, allowed: readonly string[] | undefined): Resolved {
    const known = this.#resolved.get(provider);
    if (known !== undefined) return known;
    if (allowed !== undefined && !allowed.includes(provider.protocol)) {
      return {
        kind: "mismatch",
        reason: {
          kind: "mismatch",
          detail: `provider speaks ${provider.protocol}; this reference accepts protocol=${allowed.join(",")}`,
        },
      };
    }
    if (protocolFor(this.#protocol, provider.protocol) === undefined) {
      return {
        kind: "mismatch",
        reason: {
          kind: "mismatch",
          detail: `no ${provider.protocol} protocol in this application (unsupported protocol)`,
        },
      };
    }
    // Referred with check=false: a provider that is down now is reconnected in the background.
    // Without rules, the consumer side's check=false (it overrides the provider's) is enough.
    const merged =
      this.#configurators.length === 0
        ? mergeProviderUrl(provider, this.#uncheckedUrl)
        : applyConfigurators(
            mergeProviderUrl(provider, this.url),
            this.#configurators,
            this.url.host,
          ).withParams({ check: "false" });
    const paramKeys = this.#internParamKeys(merged);
    if (isDisabled(merged)) {
      const byRule = !isDisabled(provider);
      return {
        kind: "disabled",
        merged,
        paramKeys,
        reason: {
          kind: "disabled",
          detail: byRule ? "disabled by an override rule" : "the provider registered itself disabled",
        },
      };
    }
    return { kind: "wanted", merged, paramKeys, key: merged.toFullString() };
  }

  /** One shared string per distinct set of parameter names (providers of one service share a few). */
  #internParamKeys(url: Url): string {
    const keys = [...url.params.keys()].join("&");
    const known = this.#paramKeySets.get(keys);
    if (known !== undefined) return known;
    this.#paramKeySets.set(keys, keys);
    return keys;
  }

  /** Turns the current lists into a new snapshot: reuse, refer, swap, then destroy what left. */
  async #refresh(): Promise<void> {
    // A rule router of a built-in's name (the config center's tag rule) takes that router's place.
    const ruleNames = new Set(this.#ruleRouters.map((r) => r.name));
    const routers = [...this.#builtinRouters.filter((r) => !ruleNames.has(r.name)), ...this.#ruleRouters];
    const providerUrls = this.#providerUrls;
    if (providerUrls === undefined) {
      this.#updateOverriddenUrl([]);
      this.swap({ routers });
      return;
    }
    if (providerUrls.length === 0) {
      // Rules apply before the lookup's round trip, as Java applies them within notify().
      this.#updateOverriddenUrl([]);
      this.#nearMisses = await this.#lookUpNearMisses();
    } else {
      this.#nearMisses = [];
    }
    const excluded = new Map<string, ExclusionReason>();
    const wanted = new Map<string, Url>();
    // Only the first merged URL of each set of parameter names can give the reference a default.
    const defaultGivers: Url[] = [];
    const givingKeySets = new Set<string>();
    const allowed = listParam(this.url, "protocol");
    const resolved = new Map<Url, Resolved>();
    for (const provider of providerUrls) {
      const outcome = this.#resolve(provider, allowed);
      resolved.set(provider, outcome);
      if (outcome.kind !== "mismatch" && !givingKeySets.has(outcome.paramKeys)) {
        givingKeySets.add(outcome.paramKeys);
        defaultGivers.push(outcome.merged);
      }
      if (outcome.kind === "wanted") wanted.set(outcome.key, outcome.merged);
      else excluded.set(provider.address, outcome.reason);
    }
    this.#resolved = resolved;

    const next = new Map<string, Invoker>();
    const added: Invoker[] = [];
    const referring: Array<Promise<void>> = [];
    for (const [key, url] of wanted) {
      const existing = this.#invokers.get(key);
      if (existing !== undefined) {
        next.set(key, existing);
        continue;
      }
      const protocol = protocolFor(this.#protocol, url.protocol) as Protocol;
      referring.push(
        protocol.refer(url).then(
          (invoker) => {
            next.set(key, invoker);
            added.push(invoker);
          },
          (error: unknown) => {
            excluded.set(url.address, { kind: "unavailable" });
            this.#logger.warn(
              `could not refer to provider ${url.address} of ${this.url.serviceKey}; left out until the registry notifies it again`,
              error,
            );
          },
        ),
      );
    }
    await Promise.all(referring);
    if (this.destroyed) {
      await Promise.allSettled(added.map((i) => i.destroy()));
      return;
    }
    // Keep the registry's order, so balancers that depend on it (round robin) see a stable list.
    const ordered: Invoker[] = [];
    for (const key of wanted.keys()) {
      const invoker = next.get(key);
      if (invoker !== undefined) ordered.push(invoker);
    }
    const previous = this.#invokers;
    this.#invokers = next;
    this.#updateOverriddenUrl(defaultGivers);
    this.swap({ invokers: ordered, excluded, routers });
    const removed: Invoker[] = [];
    for (const [key, invoker] of previous) if (!next.has(key)) removed.push(invoker);
    this.#logChanges(added, removed, ordered.length);
    if (ordered.length > 0) for (const done of [...this.#providerWaiters]) done();
    const results = await Promise.allSettled(removed.map((i) => i.destroy()));
    for (const result of results) {
      if (result.status === "rejected") {
        this.#logger.warn(`could not close a removed provider of ${this.url.serviceKey}`, result.reason);
      }
    }
  }
}

/** One provider URL under the current rules (see `RegistryDirectory#resolve`). */
type Resolved =
  | { readonly kind: "mismatch"; readonly reason: ExclusionReason }
  | {
      readonly kind: "disabled";
      readonly merged: Url;
      readonly paramKeys: string;
      readonly reason: ExclusionReason;
    }
  | { readonly kind: "wanted"; readonly merged: Url; readonly paramKeys: string; readonly key: string };
