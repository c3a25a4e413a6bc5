import {
  Code,
  DEFAULT_CHECK,
  DEFAULT_REGISTRY_RETRY_PERIOD_MS,
  DEFAULT_REGISTRY_RETRY_TIMES,
  RpcError,
  type Url,
} from "../core/index.js";
import { AbstractRegistry, type RegistryOptions } from "./abstract-registry.js";
import {
  CATEGORY_KEY,
  CONSUMER_PROTOCOL,
  type ListChange,
  type NotifyListener,
  PROVIDERS_CATEGORY,
  REGISTRY_LOG,
} from "./registry.js";
import { categoryOf } from "./url-match.js";

/** A registry that is unreachable, not connected or too slow: its message is the whole story. */
function operational(error: unknown): boolean {
  return (
    error instanceof RpcError && (error.code === Code.Unavailable || error.code === Code.DeadlineExceeded)
  );
}

type TaskKind = "register" | "unregister" | "subscribe" | "unsubscribe" | "notify" | "work";

interface FailedTask {
  readonly kind: TaskKind;
  readonly url: Url;
  readonly listener: NotifyListener | undefined;
  /** For notify: the latest list per category still to deliver. */
  readonly pending: Map<string, readonly Url[]>;
  /** For work: what to run again. */
  readonly work: (() => Promise<void>) | undefined;
  attempts: number;
}

/**
 * Java's `FailbackRegistry`: remote operations that fail are remembered and retried every
 * `retry.period` ms (default 5000) up to `retry.times` times (default 3) by one unref'd timer that
 * runs only while something is pending. A newer operation on the same URL (and listener) cancels a
 * pending one it supersedes: register cancels a pending unregister, subscribe cancels a pending
 * unsubscribe and notify, and so on. With `check=true` (the default, on the registry URL and the
 * operation's URL) a failure rejects and nothing is remembered; with `check=false` it is logged and
 * retried. A failed subscribe first falls back to the cache file's lists when it has some.
 */
export abstract class FailbackRegistry extends AbstractRegistry {
  readonly #failed = new Map<string, FailedTask>();
  readonly #listenerIds = new WeakMap<NotifyListener, number>();
  #nextListenerId = 1;
  readonly #retryPeriodMs: number;
  readonly #retryTimes: number;
  #timer: NodeJS.Timeout | undefined;
  #retrying = false;

  constructor(url: Url, options: RegistryOptions = {}) {
    super(url, options);
    this.#retryPeriodMs = Math.max(1, url.number("retry.period", DEFAULT_REGISTRY_RETRY_PERIOD_MS));
    this.#retryTimes = url.number("retry.times", DEFAULT_REGISTRY_RETRY_TIMES);
  }

  protected abstract doRegister(url: Url): Promise<void>;
  protected abstract doUnregister(url: Url): Promise<void>;
  protected abstract doSubscribe(url: Url, listener: NotifyListener): Promise<void>;
  protected abstract doUnsubscribe(url: Url, listener: NotifyListener): Promise<void>;

  /**
   * Runs `work` now: something kept in this registry outside `register`/`subscribe` (the Dubbo 3
   * instance node and mapping, application-level reads, the config center's rules). When it fails
   * because the registry is unreachable or not connected, it is kept under `name` (a newer `work`
   * of the same name replaces it) and run again with the other retries, every `retry.period` ms
   * and at once after a reconnect, until it succeeds (not limited by `retry.times`: each run brings
   * its owner's state up to date, so a late run is never wrong). Other errors reject.
   */
  async runOrRetry(name: string, work: () => Promise<void>): Promise<void> {
    const key = `work ${name}`;
    this.#failed.delete(key);
    try {
      await work();
    } catch (error) {
      if (!operational(error)) throw error;
      this.logger.debug(REGISTRY_LOG, `${name} waits for registry ${this.url.address}: ${String(error)}`);
      this.#failed.set(key, {
        kind: "work",
        url: this.url,
        listener: undefined,
        pending: new Map(),
        work,
        attempts: 0,
      });
      this.#startTimer();
    }
  }

  /** What is waiting for a retry, for diagnostics and tests: `kind url`. */
  pendingRetries(): string[] {
    return [...this.#failed.values()].map((t) => `${t.kind} ${t.url.toString()}`);
  }

  override async register(url: Url): Promise<void> {
    await super.register(url);
    this.#cancel("register", url);
    this.#cancel("unregister", url);
    const counted = url.protocol !== CONSUMER_PROTOCOL;
    try {
      await this.doRegister(url);
      if (counted) this.reportOperation("registerService", url.serviceInterface, true);
    } catch (error) {
      if (counted) this.reportOperation("registerService", url.serviceInterface, false);
      if (this.#check(url) && counted) {
        await super.unregister(url);
        throw this.#error("register", url, error);
      }
      this.#logRetry("register", url, error);
      this.#add("register", url);
    }
  }

  override async unregister(url: Url): Promise<void> {
    await super.unregister(url);
    this.#cancel("register", url);
    this.#cancel("unregister", url);
    try {
      await this.doUnregister(url);
    } catch (error) {
      if (this.#check(url) && url.protocol !== CONSUMER_PROTOCOL) throw this.#error("unregister", url, error);
      this.#logRetry("unregister", url, error);
      this.#add("unregister", url);
    }
  }

  override async subscribe(url: Url, listener: NotifyListener): Promise<void> {
    await super.subscribe(url, listener);
    this.#cancelSubscription(url, listener);
    // A reference's providers subscription, as Java counts in `RegistryDirectory.subscribe`.
    const counted =
      url.protocol === CONSUMER_PROTOCOL &&
      url.string(CATEGORY_KEY, PROVIDERS_CATEGORY).split(",").includes(PROVIDERS_CATEGORY);
    try {
      await this.doSubscribe(url, listener);
      if (counted) this.reportOperation("subscribe", url.serviceInterface, true);
    } catch (error) {
      if (counted) this.reportOperation("subscribe", url.serviceInterface, false);
      const cached = this.cachedUrls(url);
      if (cached.length > 0) {
        this.logger.warn(
          `${this.#error("subscribe", url, error).message}; using ${cached.length} URLs from the cache file ${this.cacheFile?.file}`,
          operational(error) ? undefined : error,
        );
        this.notify(url, listener, cached);
      } else if (this.#check(url)) {
        await super.unsubscribe(url, listener);
        throw this.#error("subscribe", url, error);
      } else {
        this.#logRetry("subscribe", url, error);
      }
      this.#add("subscribe", url, listener);
    }
  }

  override async unsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    await super.unsubscribe(url, listener);
    this.#cancelSubscription(url, listener);
    try {
      await this.doUnsubscribe(url, listener);
    } catch (error) {
      if (this.#check(url)) throw this.#error("unsubscribe", url, error);
      this.#logRetry("unsubscribe", url, error);
      this.#add("unsubscribe", url, listener);
    }
  }

  /** Delivers lists; a listener that throws gets the latest lists again on the next retry. */
  protected override notify(url: Url, listener: NotifyListener, urls: readonly Url[]): void {
    try {
      super.notify(url, listener, urls);
      // Categories just delivered supersede the same categories still waiting for a retry.
      const key = this.#key("notify", url, listener);
      const waiting = this.#failed.get(key);
      if (waiting !== undefined) {
        for (const u of urls) waiting.pending.delete(categoryOf(u));
        if (waiting.pending.size === 0) this.#failed.delete(key);
      }
    } catch (error) {
      this.logger.warn(`a listener of ${url.serviceKey} failed on notify; retrying later`, error);
      this.#mergePending(this.#add("notify", url, listener), urls);
    }
  }

  /**
   * Delivers a change, or the full list while a failed notify of this listener waits for its
   * retry (the change would be relative to lists the listener never took). A listener that throws
   * on the change gets the full list on the next retry.
   */
  protected override notifyChange(url: Url, listener: NotifyListener, change: ListChange): void {
    if (this.#failed.has(this.#key("notify", url, listener))) {
      this.notify(url, listener, change.after);
      return;
    }
    try {
      super.notifyChange(url, listener, change);
    } catch (error) {
      this.logger.warn(`a listener of ${url.serviceKey} failed on notify; retrying later`, error);
      this.#mergePending(this.#add("notify", url, listener), change.after);
    }
  }

  /**
   * Re-registers and re-subscribes everything (after a registry lost our state, e.g. a ZooKeeper
   * session expiry). Each operation is tried now; failures go to the retry timer.
   */
  async recover(): Promise<void> {
    // Registrations first: a process that both provides and consumes a service must not read its
    // own provider list while its nodes are still missing.
    await this.recoverRegistered();
    await this.recoverSubscribed();
  }

  /** Registers every remembered URL again (idempotent remotely); failures go to the retry timer. */
  protected async recoverRegistered(): Promise<void> {
    const work: Array<Promise<void>> = [];
    for (const url of this.registered()) {
      work.push(
        this.doRegister(url).catch((error: unknown) => {
          this.#logRetry("re-register", url, error);
          this.#add("register", url);
        }),
      );
    }
    await Promise.all(work);
  }

  /** Subscribes every remembered subscription again, notifying current lists; failures are retried. */
  protected async recoverSubscribed(): Promise<void> {
    const work: Array<Promise<void>> = [];
    for (const { url, listeners } of this.subscribed()) {
      for (const listener of listeners) {
        work.push(
          this.doSubscribe(url, listener).catch((error: unknown) => {
            this.#logRetry("re-subscribe", url, error);
            this.#add("subscribe", url, listener);
          }),
        );
      }
    }
    await Promise.all(work);
  }

  /** Runs every pending retry now instead of at the next tick (e.g. right after a reconnect). */
  async retryNow(): Promise<void> {
    await this.#retry();
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    this.#failed.clear();
    this.#stopTimer();
  }

  #check(url: Url): boolean {
    return this.url.boolean("check", DEFAULT_CHECK) && url.boolean("check", DEFAULT_CHECK);
  }

  /** Reports an operation left to the retry timer. */
  #logRetry(operation: string, url: Url, error: unknown): void {
    this.reportFailure(
      `could not ${operation} ${url.serviceKey} at registry ${this.url.address}; ` +
        `retrying every ${this.#retryPeriodMs} ms (retry.period)`,
      error,
    );
  }

  #error(operation: string, url: Url, cause: unknown): RpcError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const retry = this.#check(url)
      ? `set check=false on the registry to retry in the background every retry.period=${this.#retryPeriodMs} ms`
      : `retrying every retry.period=${this.#retryPeriodMs} ms`;
    return new RpcError(
      `failed to ${operation} ${url.serviceKey} (${url.toString()}) at registry ${this.url.address}: ${reason} (${retry})`,
      Code.Unavailable,
      { cause },
    );
  }

  #key(kind: TaskKind, url: Url, listener?: NotifyListener): string {
    if (listener === undefined) return `${kind} ${url.toFullString()}`;
    let id = this.#listenerIds.get(listener);
    if (id === undefined) {
      id = this.#nextListenerId++;
      this.#listenerIds.set(listener, id);
    }
    return `${kind} ${id} ${url.toFullString()}`;
  }

  #add(kind: TaskKind, url: Url, listener?: NotifyListener): FailedTask {
    const key = this.#key(kind, url, listener);
    let task = this.#failed.get(key);
    if (task === undefined) {
      task = { kind, url, listener, pending: new Map(), work: undefined, attempts: 0 };
      this.#failed.set(key, task);
    }
    this.#startTimer();
    return task;
  }

  #mergePending(task: FailedTask, urls: readonly Url[]): void {
    const byCategory = new Map<string, Url[]>();
    for (const u of urls) {
      const category = categoryOf(u);
      const list = byCategory.get(category) ?? [];
      list.push(u);
      byCategory.set(category, list);
    }
    for (const [category, list] of byCategory) task.pending.set(category, list);
  }

  #cancel(kind: TaskKind, url: Url, listener?: NotifyListener): void {
    this.#failed.delete(this.#key(kind, url, listener));
  }

  #cancelSubscription(url: Url, listener: NotifyListener): void {
    this.#cancel("subscribe", url, listener);
    this.#cancel("unsubscribe", url, listener);
    this.#cancel("notify", url, listener);
  }

  #startTimer(): void {
    if (this.#timer !== undefined || this.destroyed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#retry().finally(() => {
        if (this.#failed.size > 0) this.#startTimer();
      });
    }, this.#retryPeriodMs);
    this.#timer.unref();
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #retry(): Promise<void> {
    if (this.#retrying || this.destroyed) return;
    this.#retrying = true;
    try {
      for (const [key, task] of [...this.#failed]) {
        if (this.#failed.get(key) !== task || this.destroyed) continue;
        task.attempts += 1;
        try {
          await this.#run(task);
          if (this.#failed.get(key) === task) this.#failed.delete(key);
        } catch (error) {
          if (task.kind === "work" && !operational(error) && this.#failed.get(key) === task) {
            this.#failed.delete(key);
            this.reportFailure(`${key.slice("work ".length)} failed at ${this.url.address}`, error);
            continue;
          }
          const limited = task.kind !== "work" && this.#retryTimes >= 0;
          if (limited && task.attempts >= this.#retryTimes && this.#failed.get(key) === task) {
            this.#failed.delete(key);
            this.reportFailure(
              `giving up on ${task.kind} ${task.url.serviceKey} at ${this.url.address} after ${task.attempts} retries ` +
                `(retry.times=${this.#retryTimes}; it is tried again when the registry recovers)`,
              error,
            );
          }
        }
      }
    } finally {
      this.#retrying = false;
    }
  }

  async #run(task: FailedTask): Promise<void> {
    switch (task.kind) {
      case "register":
        return this.doRegister(task.url);
      case "unregister":
        return this.doUnregister(task.url);
      case "subscribe":
        return this.doSubscribe(task.url, task.listener as NotifyListener);
      case "unsubscribe":
        return this.doUnsubscribe(task.url, task.listener as NotifyListener);
      case "work":
        return (task.work as () => Promise<void>)();
      case "notify": {
        const urls = [...task.pending.values()].flat();
        super.notify(task.url, task.listener as NotifyListener, urls);
        return;
      }
    }
  }
}
