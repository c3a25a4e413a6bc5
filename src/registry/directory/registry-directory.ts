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
import type { ListChange, NotifyListener, Registry, RegistryLogger } from "../registry.js";
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
import { ParamNameSets } from "./param-name-sets.js";

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
  readonly #listener: NotifyListener = Object.assign((urls: readonly Url[]) => this.notify(urls), {
    changed: (change: ListChange) => this.notifyChange(change),
  });
  /** undefined until the first providers list arrives. */
  #providerUrls: readonly Url[] | undefined;
  /** The change `#providerUrls` came from, while the refresh that applies it is pending. */
  #providerChange: ListChange | undefined;
  #configurators: readonly Configurator[] = [];
  #nearMisses: readonly NearMiss[] = [];
  #ruleRouters: readonly Router[] = [];
  #overriddenUrl: Url;
  /** The consumer URL with `check=false`, which every provider is referred with. */
  readonly #uncheckedUrl: Url;
  /**
   * What each current provider URL became, by the provider's `Url` object: the ZooKeeper registry
   * hands the same object for an unchanged child, so a change of one child among 10 000 resolves
   * and refers that child only, and every other provider keeps its invoker and its state.
   */
  #entries = new Map<Url, Entry>();
  /**
   * The entries in the registry's order (a provider whose refer failed is not among them): what a
   * change from the registry is spliced into, position by position.
   */
  #listed: readonly Entry[] = [];
  /**
   * The provider list `#listed` is, position by position, when it is all of it (no refer failed,
   * none listed twice): a change whose `before` is this array is known to start from the listed
   * entries without comparing them one by one.
   */
  #listedFrom: readonly Url[] | undefined;
  /** The last snapshot's invokers while its entries are uniform (see `#splicedLists`), with their names' id. */
  #uniform: { readonly keys: string; readonly ordered: readonly Invoker[] } | undefined;
  /** Set when the rules change: every provider is resolved again on the next refresh. */
  #rulesChanged = false;
  #paramNameSets = new ParamNameSets();
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
      this.#rulesChanged = true;
      this.#paramNameSets = new ParamNameSets();
    }
    const routers = byCategory.get(ROUTERS_CATEGORY);
    if (routers !== undefined) {
      this.#ruleRouters =
        this.#routerFactories === undefined
          ? this.#warnNoRouterFactories(routers)
          : routersFromRuleUrls(this.#routerFactories, routers, this.#logger);
    }
    const providers = byCategory.get(PROVIDERS_CATEGORY);
    if (providers !== undefined) {
      this.#providerUrls = providers;
      this.#providerChange = undefined;
    }
    this.#schedule();
  }

  /**
   * The registry listener's change path (see `ListChange`): a change of the providers is applied
   * by splicing it into the listed entries, so only the added providers are resolved and referred
   * and nothing is looked up per unchanged provider. The result is the full path's: a change that
   * cannot be spliced (rules changed since, a refer failed, another list arrived first) is applied
   * as the full list `change.after`.
   */
  notifyChange(change: ListChange): void {
    if (this.destroyed) return;
    if (change.category !== PROVIDERS_CATEGORY) {
      this.notify(change.after);
      return;
    }
    this.#providerUrls = change.after;
    this.#providerChange = change;
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
    const invokers = invokersOf(this.#entries.values());
    this.#entries = new Map();
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
   * One record per change of the provider set: who came, who left (the first few of each by
   * address, then a count), how many are left. Built from the invokers referred and destroyed by
   * this refresh, so a change costs what changed.
   */
  #logChanges(added: readonly Invoker[], removed: readonly Invoker[], now: number): void {
    // An address both added and removed was re-referred (its parameters changed): not a change.
    const left = new Set(removed.map((i) => i.url.address));
    const stayed = new Set<string>();
    const came: string[] = [];
    let cameUnnamed = 0;
    for (const invoker of added) {
      // A first load adds thousands and removes none: only the named few become strings.
      if (left.size === 0 && came.length === LOGGED_ADDRESSES) {
        cameUnnamed++;
        continue;
      }
      const address = invoker.url.address;
      if (left.has(address)) stayed.add(address);
      else if (came.length < LOGGED_ADDRESSES) came.push(`+${address}`);
      else cameUnnamed++;
    }
    const gone = [...left].filter((a) => !stayed.has(a)).map((a) => `-${a}`);
    const goneUnnamed = Math.max(gone.length - LOGGED_ADDRESSES, 0);
    const changes = [...came, ...gone.slice(0, LOGGED_ADDRESSES)];
    if (changes.length === 0) return;
    if (cameUnnamed > 0) changes.push(`${cameUnnamed} more added`);
    if (goneUnnamed > 0) changes.push(`${goneUnnamed} more removed`);
    const message = `providers of ${this.url.serviceKey}: ${changes.join(", ")} (${now} now)`;
    if (now === 0) this.#logger.warn(`${message}; calls fail until a provider registers`);
    else this.#logger.info(message);
  }

  /**
   * What one provider URL becomes under the current rules: merged with the consumer URL and the
   * configurators applied, or why it is left out.
   */
  #resolve(provider: Url, allowed: readonly string[] | undefined): Resolved {
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
    // Without rules, the consumer side's check=false (it overrides the provider's) is enough, and
    // the merged URL is a view over the provider's parameters (its names decide the merged ones).
    const withoutRules = this.#configurators.length === 0;
    const merged = withoutRules
      ? mergeProviderUrl(provider, this.#uncheckedUrl)
      : applyConfigurators(
          mergeProviderUrl(provider, this.url),
          this.#configurators,
          this.url.host,
        ).withParams({ check: "false" });
    const paramKeys = this.#paramNameSets.idOf((withoutRules ? provider : merged).params);
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
    return { kind: "wanted", merged, paramKeys };
  }

  /**
   * Turns the current lists into a new snapshot: keep, resolve and refer what is new, swap, then
   * destroy what left. A provider seen before (the same `Url` object, and no rule change since)
   * costs a few map operations; only new ones are merged, and only those whose merged URL no
   * departed invoker has are referred (so a registry that hands new objects for unchanged
   * providers, or a rule change that leaves a merged URL as it was, keeps the invoker).
   */
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
    const change = this.#providerChange;
    this.#providerChange = undefined;
    const plan =
      (change !== undefined && change.after === providerUrls && !this.#rulesChanged
        ? this.#spliced(change)
        : undefined) ?? this.#matched(providerUrls);
    this.#rulesChanged = false;
    const { slots, fresh, freshAt, departed } = plan;
    const reused = new Set<Invoker>();
    const referring = fresh.length === 0 ? [] : this.#resolveFresh(fresh, freshAt, departed, slots, reused);
    const failed = await this.#referInTurns(referring);
    if (this.destroyed) {
      await Promise.allSettled(referring.map(({ entry }) => entry.invoker?.destroy()));
      return;
    }
    const unavailable = new Set<Entry>();
    for (const { entry, url, error } of failed) {
      unavailable.add(entry);
      this.#logger.warn(
        `could not refer to provider ${url.address} of ${this.url.serviceKey}; left out until the registry notifies it again`,
        error,
      );
    }
    const listed = slots as Entry[]; // every place is resolved now
    const lists =
      (plan.splice !== undefined && unavailable.size === 0
        ? this.#splicedLists(listed, plan.splice)
        : undefined) ?? listOf(listed, unavailable);
    const { ordered, excluded, defaultGivers } = lists;
    this.#uniform = lists.uniformKeys === undefined ? undefined : { keys: lists.uniformKeys, ordered };
    const { entries } = plan;
    if (entries === this.#entries) for (const entry of departed) entries.delete(entry.provider);
    for (const at of freshAt) entries.set(listed[at]!.provider, listed[at]!);
    // Forgotten, so the next notification refers it again.
    this.#listed = unavailable.size === 0 ? listed : listed.filter((entry) => !unavailable.has(entry));
    this.#listedFrom = this.#listed.length === providerUrls.length ? providerUrls : undefined;
    for (const entry of unavailable) entries.delete(entry.provider);
    this.#entries = entries;
    this.#updateOverriddenUrl(defaultGivers);
    this.swap({ invokers: ordered, excluded, routers });
    const removed = invokersOf(departed).filter((i) => !reused.has(i));
    this.#logChanges(invokersOf(referring.map(({ entry }) => entry)), removed, ordered.length);
    if (ordered.length > 0) for (const done of [...this.#providerWaiters]) done();
    const results = await Promise.allSettled(removed.map((i) => i.destroy()));
    for (const result of results) {
      if (result.status === "rejected") {
        this.#logger.warn(`could not close a removed provider of ${this.url.serviceKey}`, result.reason);
      }
    }
  }

  /**
   * The full path's plan: every listed provider looked up by its `Url` object (after a rule change
   * none is kept), in the registry's order, a provider listed twice once.
   */
  #matched(providerUrls: readonly Url[]): Plan {
    const previous = this.#entries;
    const kept = this.#rulesChanged ? new Map<Url, Entry>() : previous;
    // The new map, a new provider's place in it held with no entry until it is resolved.
    const next = new Map<Url, Entry | undefined>();
    const slots: Array<Entry | undefined> = [];
    const fresh: Url[] = [];
    const freshAt: number[] = [];
    for (const provider of providerUrls) {
      if (next.has(provider)) continue;
      const entry = kept.get(provider);
      if (entry === undefined) {
        fresh.push(provider);
        freshAt.push(slots.length);
      }
      next.set(provider, entry);
      slots.push(entry);
    }
    const departed: Entry[] = [];
    if (slots.length - freshAt.length < previous.size) {
      for (const [provider, entry] of previous) if (next.get(provider) !== entry) departed.push(entry);
    }
    return { slots, fresh, freshAt, departed, entries: next as Map<Url, Entry> };
  }

  /**
   * The change path's plan: the change spliced into the listed entries, or undefined when they are
   * not the change's `before` position by position (a refer failed, or a list arrived between).
   * A provider that moved within the changed stretch keeps its entry, as on the full path.
   */
  #spliced(change: ListChange): Plan | undefined {
    const listed = this.#listed;
    const { before, start, removed, added } = change;
    if (before !== this.#listedFrom) {
      if (listed.length !== before.length) return undefined;
      for (let i = 0; i < listed.length; i++) if (listed[i]!.provider !== before[i]) return undefined;
    }
    const end = start + removed.length;
    const leaving = new Set(listed.slice(start, end));
    const middle: Array<Entry | undefined> = [];
    const fresh: Url[] = [];
    const freshAt: number[] = [];
    for (const provider of added) {
      const entry = this.#entries.get(provider);
      if (entry === undefined) {
        fresh.push(provider);
        freshAt.push(start + middle.length);
      } else if (leaving.delete(entry) === false) return undefined; // listed twice: the full path dedupes
      middle.push(entry);
    }
    // The unchanged head and tail as native copies, not a push per provider.
    const slots = (listed.slice(0, start) as Array<Entry | undefined>).concat(middle, listed.slice(end));
    const splice = { start, removed: removed.length, added: added.length };
    return { slots, fresh, freshAt, departed: [...leaving], entries: this.#entries, splice };
  }

  /**
   * The snapshot's lists after a change spliced into uniform entries (each wanted and referred,
   * all of one set of parameter names), as `listOf` would make them, from the last lists: their
   * invokers spliced natively, no exclusions, and the first provider's merged URL as the only one
   * giving defaults. Undefined when the last lists or the added entries are not uniform.
   */
  #splicedLists(listed: readonly Entry[], splice: NonNullable<Plan["splice"]>): Lists | undefined {
    const uniform = this.#uniform;
    if (uniform === undefined || listed.length === 0) return undefined;
    const { start, removed, added } = splice;
    const middle: Invoker[] = [];
    for (let i = start; i < start + added; i++) {
      const { resolved, invoker } = listed[i]!;
      if (invoker === undefined || resolved.kind !== "wanted" || resolved.paramKeys !== uniform.keys)
        return undefined;
      middle.push(invoker);
    }
    const previous = uniform.ordered;
    const ordered = previous.slice(0, start).concat(middle, previous.slice(start + removed));
    const first = listed[0]!.resolved as Extract<Resolved, { kind: "wanted" }>;
    return {
      ordered,
      excluded: new Map(),
      defaultGivers: [first.merged],
      uniformKeys: uniform.keys,
    };
  }

  /**
   * Resolves the providers not seen before into their `slots`, reusing the invoker of a departed
   * entry whose merged URL is the same (into `reused`); returns the entries that need a new
   * invoker. URLs are built into strings only when some provider is new and some invoker departed.
   */
  #resolveFresh(
    fresh: readonly Url[],
    freshAt: readonly number[],
    departed: readonly Entry[],
    slots: Array<Entry | undefined>,
    reused: Set<Invoker>,
  ): Referring[] {
    const departedByUrl = new Map<string, Invoker>();
    for (const invoker of invokersOf(departed)) departedByUrl.set(invoker.url.toFullString(), invoker);
    const allowed = listParam(this.url, "protocol");
    const referring: Referring[] = [];
    for (let i = 0; i < fresh.length; i++) {
      const provider = fresh[i]!;
      const resolved = this.#resolve(provider, allowed);
      if (resolved.kind !== "wanted") {
        slots[freshAt[i]!] = { provider, resolved, invoker: undefined };
        continue;
      }
      const url = resolved.merged;
      const invoker = departedByUrl.size === 0 ? undefined : departedByUrl.get(url.toFullString());
      const entry: Entry = { provider, resolved, invoker };
      slots[freshAt[i]!] = entry;
      if (entry.invoker === undefined) referring.push({ entry, url });
      else reused.add(entry.invoker);
    }
    return referring;
  }

  /**
   * Refers each entry's merged URL, a bounded number per event-loop turn: an eager protocol opens
   * a socket within `refer`, and 10 000 of them started in one turn stalled the loop for seconds
   * (see docs/perf/directory-at-scale.md); between turns, connections already opened make progress.
   * Sets each entry's invoker and returns the refers that failed; the promises are settled together,
   * where a reaction per refer cost two closures and a result object per provider.
   */
  async #referInTurns(referring: readonly Referring[]): Promise<Failed[]> {
    const refers: Array<Promise<Invoker>> = [];
    for (let start = 0; start < referring.length; start += REFERS_PER_TURN) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      if (this.destroyed) break;
      const end = Math.min(start + REFERS_PER_TURN, referring.length);
      for (let i = start; i < end; i++) {
        const { url } = referring[i]!;
        refers.push((protocolFor(this.#protocol, url.protocol) as Protocol).refer(url));
      }
    }
    const results = await Promise.allSettled(refers);
    const failed: Failed[] = [];
    for (let i = 0; i < results.length; i++) {
      const result = results[i]!;
      if (result.status === "fulfilled") referring[i]!.entry.invoker = result.value;
      else failed.push({ ...referring[i]!, error: result.reason });
    }
    return failed;
  }
}

/** Refers started per event-loop turn (see `#referInTurns`). */
const REFERS_PER_TURN = 64;

/** Addresses a log line of added or removed providers names, each way; the rest are counted. */
const LOGGED_ADDRESSES = 5;

/** What one provider URL became: its resolution under the current rules, then its invoker. */
interface Entry {
  readonly provider: Url;
  readonly resolved: Resolved;
  /** Undefined while referring, and for providers left out. */
  invoker: Invoker | undefined;
}

/**
 * What a refresh does to the entries: `slots` in the registry's order, the providers to resolve
 * and their positions (their slots empty until then), the entries that left, and the map by
 * provider the refresh leaves (the current one updated in place on the change path).
 */
interface Plan {
  readonly slots: Array<Entry | undefined>;
  readonly fresh: readonly Url[];
  readonly freshAt: readonly number[];
  readonly departed: readonly Entry[];
  readonly entries: Map<Url, Entry>;
  /** On the change path: where the listed entries were spliced, and how many left and came. */
  readonly splice?: { readonly start: number; readonly removed: number; readonly added: number };
}

/** The snapshot's lists (see `listOf`). */
interface Lists {
  /**
   * Not frozen: the snapshot freezes its own copy, and this one is sliced by the next change (V8
   * slices a frozen array element by element: 1 ms for 10 000, against 0.03 ms unfrozen).
   */
  readonly ordered: readonly Invoker[];
  readonly excluded: Map<string, ExclusionReason>;
  readonly defaultGivers: Url[];
  /** The parameter names' id every entry shares, when each is wanted and referred; else undefined. */
  readonly uniformKeys: string | undefined;
}

/** A new provider's entry and the merged URL it is referred with. */
interface Referring {
  readonly entry: Entry;
  readonly url: Url;
}

interface Failed extends Referring {
  /** Why `refer` failed (the entry then has no invoker). */
  readonly error: unknown;
}

/** The snapshot's lists from the entries, in the registry's order. */
function listOf(entries: readonly Entry[], unavailable: ReadonlySet<Entry>): Lists {
  const ordered: Invoker[] = [];
  const excluded = new Map<string, ExclusionReason>();
  // Only the first merged URL of each set of parameter names can give the reference a default;
  // neighbours mostly share their set, so the set of sets is asked only when it changes.
  const defaultGivers: Url[] = [];
  const givingKeySets = new Set<string>();
  let lastKeys: string | undefined;
  let uniform = entries.length > 0;
  for (const entry of entries) {
    const { resolved } = entry;
    if (resolved.kind !== "mismatch" && resolved.paramKeys !== lastKeys) {
      lastKeys = resolved.paramKeys;
      if (!givingKeySets.has(lastKeys)) {
        givingKeySets.add(lastKeys);
        defaultGivers.push(resolved.merged);
      }
    }
    if (entry.invoker !== undefined) ordered.push(entry.invoker);
    else if (resolved.kind !== "wanted") excluded.set(entry.provider.address, resolved.reason);
    else if (unavailable.has(entry)) excluded.set(entry.provider.address, { kind: "unavailable" });
    if (entry.invoker === undefined || resolved.kind !== "wanted") uniform = false;
  }
  const uniformKeys = uniform && givingKeySets.size === 1 ? lastKeys : undefined;
  return { ordered, excluded, defaultGivers, uniformKeys };
}

function invokersOf(entries: Iterable<Entry>): Invoker[] {
  const invokers: Invoker[] = [];
  for (const entry of entries) if (entry.invoker !== undefined) invokers.push(entry.invoker);
  return invokers;
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
  | { readonly kind: "wanted"; readonly merged: Url; readonly paramKeys: string };
