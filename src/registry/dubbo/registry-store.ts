import { DEFAULT_DYNAMIC, Url } from "../../core/index.js";
import { ANY_VALUE } from "../registry.js";
import { isMatch } from "../url-match.js";
import type { WatchResult } from "./registry-contract.js";

/** Leases are clamped to this range so a bad client cannot pin entries forever or expire at once. */
const MIN_LEASE_MS = 500;
const MAX_LEASE_MS = 10 * 60_000;

export interface RegistryStoreOptions {
  /** How often lapsed leases are swept, ms. Default 1000. */
  readonly sweepMs?: number;
  /** Longest a watch may be held, ms, whatever the client asks. Default 60000. */
  readonly maxWatchMs?: number;
  /**
   * After a (re)start, ms during which a watch from a client that knew another version waits for a
   * real change instead of answering at once: clients re-register within a lease, and consumers
   * must not be told "no providers" by a registry that simply forgot them. Default 0.
   */
  readonly recoveryMs?: number;
  readonly now?: () => number;
}

interface Client {
  expiresAt: number;
  readonly urls: Set<string>;
}

interface Entry {
  readonly url: Url;
  readonly owner: string;
}

interface Watcher {
  readonly subscription: Url;
  readonly key: string;
  readonly resolve: (result: WatchResult) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * The embedded registry's state: registered URLs with their owning client, client leases, and a
 * version per service interface that moves on every change of that service's URLs, so a watch
 * can tell "nothing changed". Pure bookkeeping: no sockets.
 */
export class RegistryStore {
  readonly #entries = new Map<string, Entry>();
  readonly #clients = new Map<string, Client>();
  /** interface → version; `*` holds the version of everything. */
  readonly #versions = new Map<string, number>();
  readonly #watchers = new Set<Watcher>();
  readonly #now: () => number;
  readonly #maxWatchMs: number;
  readonly #recoveryUntil: number;
  /**
   * Versions start at the start time, so a client that polls a restarted server with a version
   * from the old one almost surely differs from every version the new one has issued.
   */
  readonly #baseVersion: number;
  readonly #sweeper: NodeJS.Timeout;
  #closed = false;

  constructor(options: RegistryStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxWatchMs = options.maxWatchMs ?? 60_000;
    this.#recoveryUntil = this.#now() + (options.recoveryMs ?? 0);
    this.#baseVersion = this.#now();
    this.#sweeper = setInterval(() => this.sweep(), options.sweepMs ?? 1000);
    this.#sweeper.unref();
  }

  /** How many URLs are registered now. */
  get size(): number {
    return this.#entries.size;
  }

  register(clientId: string, urlText: string, leaseMs: number): void {
    const url = Url.parse(urlText);
    const key = url.toFullString();
    const client = this.#touch(clientId, leaseMs, true) as Client;
    const existing = this.#entries.get(key);
    if (existing !== undefined && existing.owner !== clientId) {
      this.#clients.get(existing.owner)?.urls.delete(key);
    }
    this.#entries.set(key, { url, owner: clientId });
    // A persistent URL (dynamic=false, e.g. an ops rule) outlives its client's lease.
    if (RegistryStore.isEphemeral(url)) client.urls.add(key);
    if (existing === undefined) this.#changed(url);
  }

  unregister(clientId: string, urlText: string): void {
    const key = Url.parse(urlText).toFullString();
    this.#touch(clientId, 0, false);
    this.#remove(key);
  }

  /** Extends a client's lease; false when the client was unknown (it is known from now on). */
  renew(clientId: string, leaseMs: number): boolean {
    const known = this.#clients.has(clientId);
    this.#touch(clientId, leaseMs, true);
    return known;
  }

  lookup(subscriptionText: string): Url[] {
    return this.#matching(Url.parse(subscriptionText));
  }

  /** Answers at once if the version differs from `knownVersion`, else on the next change or after `waitMs`. */
  watch(
    clientId: string,
    subscriptionText: string,
    knownVersion: number,
    waitMs: number,
  ): Promise<WatchResult> {
    const subscription = Url.parse(subscriptionText);
    const key = this.#versionKey(subscription);
    this.#touch(clientId, 0, false);
    const current = this.#versions.get(key) ?? this.#baseVersion;
    const recovering = knownVersion >= 0 && this.#now() < this.#recoveryUntil;
    if ((current !== knownVersion && !recovering) || waitMs <= 0 || this.#closed) {
      return Promise.resolve(this.#result(subscription, key));
    }
    const holdMs = Math.min(
      waitMs,
      this.#maxWatchMs,
      recovering ? Math.max(1, this.#recoveryUntil - this.#now()) : Number.POSITIVE_INFINITY,
    );
    return new Promise((resolve) => {
      const watcher: Watcher = {
        subscription,
        key,
        resolve,
        timer: setTimeout(() => this.#answer(watcher), holdMs),
      };
      watcher.timer.unref();
      this.#watchers.add(watcher);
    });
  }

  /** Drops the URLs of clients whose lease lapsed. */
  sweep(): void {
    const now = this.#now();
    for (const [clientId, client] of this.#clients) {
      if (client.expiresAt > now) continue;
      this.#clients.delete(clientId);
      for (const key of client.urls) this.#remove(key);
    }
  }

  /** Answers every pending watch with the current lists and stops the sweeper. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#sweeper);
    for (const watcher of [...this.#watchers]) this.#answer(watcher);
  }

  #touch(clientId: string, leaseMs: number, create: boolean): Client | undefined {
    let client = this.#clients.get(clientId);
    if (client === undefined) {
      if (!create) return undefined;
      client = { expiresAt: 0, urls: new Set() };
      this.#clients.set(clientId, client);
    }
    if (leaseMs > 0) {
      const lease = Math.min(MAX_LEASE_MS, Math.max(MIN_LEASE_MS, leaseMs));
      client.expiresAt = Math.max(client.expiresAt, this.#now() + lease);
    }
    return client;
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#clients.get(entry.owner)?.urls.delete(key);
    this.#entries.delete(key);
    this.#changed(entry.url);
  }

  #versionKey(subscription: Url): string {
    return subscription.serviceInterface === ANY_VALUE ? ANY_VALUE : subscription.serviceInterface;
  }

  #changed(url: Url): void {
    for (const key of [url.serviceInterface, ANY_VALUE]) {
      this.#versions.set(key, (this.#versions.get(key) ?? this.#baseVersion) + 1);
    }
    for (const watcher of [...this.#watchers]) {
      if (watcher.key === ANY_VALUE || watcher.key === url.serviceInterface) this.#answer(watcher);
    }
  }

  #answer(watcher: Watcher): void {
    if (!this.#watchers.delete(watcher)) return;
    clearTimeout(watcher.timer);
    watcher.resolve(this.#result(watcher.subscription, watcher.key));
  }

  #result(subscription: Url, key: string): WatchResult {
    return {
      version: this.#versions.get(key) ?? this.#baseVersion,
      urls: this.#matching(subscription).map((u) => u.toFullString()),
    };
  }

  #matching(subscription: Url): Url[] {
    const out: Url[] = [];
    for (const { url } of this.#entries.values()) if (isMatch(subscription, url)) out.push(url);
    return out;
  }

  /** Whether a URL dies with its client's lease. */
  static isEphemeral(url: Url): boolean {
    return url.boolean("dynamic", DEFAULT_DYNAMIC);
  }
}
