import { randomUUID } from "node:crypto";
import {
  Code,
  createInvocation,
  DEFAULT_CHECK,
  DEFAULT_DUBBO_REGISTRY_PORT,
  DEFAULT_EMBEDDED_REGISTRY_LEASE_MS,
  DEFAULT_EMBEDDED_REGISTRY_WATCH_MS,
  DEFAULT_REGISTRY_RETRY_PERIOD_MS,
  DEFAULT_REGISTRY_TIMEOUT_MS,
  demoteInfo,
  type Invoker,
  RpcError,
  splitList,
  Url,
} from "../../core/index.js";
import { createDubboProtocol, type DubboProtocol } from "../../protocol/dubbo/index.js";
import type { RegistryOptions } from "../abstract-registry.js";
import { FailbackRegistry } from "../failback-registry.js";
import {
  ANY_VALUE,
  CATEGORY_KEY,
  type NotifyListener,
  PROVIDERS_CATEGORY,
  REGISTRY_LOG,
} from "../registry.js";
import { categoryOf, emptyUrl } from "../url-match.js";
import { EMBEDDED_REGISTRY_SERVICE, RegistryServiceContract, type WatchResult } from "./registry-contract.js";

type Method = keyof typeof RegistryServiceContract.methods;

interface WatchLoop {
  stopped: boolean;
}

/**
 * The client of the embedded registry (`dubbo://host:port`, default port 9090), with the
 * bookkeeping, cache file and failback retries every registry has.
 *
 * Registry URL parameters: `lease` (ms, default 15000) — registrations lapse this long after the
 * client stops renewing (it renews every third of it); `watch.wait` (ms, default 20000) — how long
 * one long-poll is held; `timeout` (ms, default 5000) — each other call; `check`, `retry.period`,
 * `retry.times`, `file`, `file.cache` as for every registry.
 *
 * Subscriptions long-poll `watch` and notify full lists per category (`empty://` for an empty
 * category); a failed poll is retried and never notifies an empty list, so consumers keep their
 * providers while the registry is away. When a renewal tells that the server forgot this client
 * (it restarted, or the lease lapsed during a partition), every registration is published again;
 * the polls pick up the lists on their own.
 */
export class DubboRegistry extends FailbackRegistry {
  readonly clientId = randomUUID();
  readonly #leaseMs: number;
  readonly #watchMs: number;
  readonly #retryMs: number;
  readonly #serviceUrl: Url;
  readonly #protocol: DubboProtocol;
  #invoker: Invoker | undefined;
  readonly #loops = new Map<NotifyListener, Map<string, WatchLoop>>();
  #renewTimer: NodeJS.Timeout | undefined;
  #reachable = false;
  /** When a reachable registry stopped answering, while it does not (for the "restored" record). */
  #lostAt: number | undefined;

  constructor(url: Url, options: RegistryOptions = {}) {
    super(url, options);
    this.#leaseMs = Math.max(500, url.number("lease", DEFAULT_EMBEDDED_REGISTRY_LEASE_MS));
    this.#watchMs = Math.max(100, url.number("watch.wait", DEFAULT_EMBEDDED_REGISTRY_WATCH_MS));
    this.#retryMs = Math.min(
      1000,
      Math.max(50, url.number("retry.period", DEFAULT_REGISTRY_RETRY_PERIOD_MS)),
    );
    const timeoutMs = url.number("timeout", DEFAULT_REGISTRY_TIMEOUT_MS);
    this.#serviceUrl = new Url({
      protocol: "dubbo",
      host: url.host,
      port: url.port === 0 ? DEFAULT_DUBBO_REGISTRY_PORT : url.port,
      path: EMBEDDED_REGISTRY_SERVICE,
      params: {
        interface: EMBEDDED_REGISTRY_SERVICE,
        side: "consumer",
        check: "false",
        timeout: String(timeoutMs),
        "watch.timeout": String(this.#watchMs + timeoutMs),
      },
    });
    this.#protocol = createDubboProtocol({ logger: demoteInfo(this.logger, REGISTRY_LOG) });
  }

  /**
   * Connects and renews once. With `check=true` (default) an unreachable server is an error; with
   * `check=false` the client keeps trying in the background and recovers when the server answers.
   */
  async start(): Promise<void> {
    this.#invoker = await this.#protocol.refer(this.#serviceUrl);
    try {
      await this.#renew();
    } catch (error) {
      if (this.url.boolean("check", DEFAULT_CHECK)) {
        await this.#protocol.destroy();
        throw new RpcError(
          `cannot reach the embedded registry at ${this.#serviceUrl.address}: ${(error as Error).message} (start it with startEmbeddedRegistry or \`dubbo-ts registry --port ${this.#serviceUrl.port}\`, or set check=false on the registry to keep trying)`,
          Code.Unavailable,
          { cause: error },
        );
      }
      this.logger.warn(
        `embedded registry ${this.#serviceUrl.address} unreachable; retrying in the background (check=false)`,
      );
    }
    this.#renewTimer = setInterval(
      () => {
        void this.#renew().catch(() => {});
      },
      Math.max(100, Math.floor(this.#leaseMs / 3)),
    );
    this.#renewTimer.unref();
  }

  isAvailable(): boolean {
    return !this.destroyed && this.#reachable && (this.#invoker?.isAvailable() ?? false);
  }

  override async lookup(url: Url): Promise<Url[]> {
    const urls = (await this.#call("lookup", [url.toFullString()])) as unknown[];
    return urls.map((u) => Url.parse(String(u)));
  }

  /** Publishes every registration again (the server forgot them); subscriptions recover on their own. */
  override async recover(): Promise<void> {
    await this.recoverRegistered();
  }

  protected async doRegister(url: Url): Promise<void> {
    await this.#call("register", [this.clientId, url.toFullString(), this.#leaseMs]);
  }

  protected async doUnregister(url: Url): Promise<void> {
    await this.#call("unregister", [this.clientId, url.toFullString()]);
  }

  protected async doSubscribe(url: Url, listener: NotifyListener): Promise<void> {
    const first = await this.#watch(url, -1, 0);
    this.#stopLoop(url, listener);
    const loop: WatchLoop = { stopped: false };
    let byUrl = this.#loops.get(listener);
    if (byUrl === undefined) {
      byUrl = new Map();
      this.#loops.set(listener, byUrl);
    }
    byUrl.set(url.toFullString(), loop);
    this.notify(url, listener, this.#withEmpty(url, first.urls));
    void this.#poll(url, listener, loop, first.version);
  }

  protected async doUnsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    this.#stopLoop(url, listener);
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    if (this.#renewTimer !== undefined) clearInterval(this.#renewTimer);
    for (const byUrl of this.#loops.values()) for (const loop of byUrl.values()) loop.stopped = true;
    this.#loops.clear();
    await this.#protocol.destroy();
  }

  async #poll(url: Url, listener: NotifyListener, loop: WatchLoop, version: number): Promise<void> {
    while (!loop.stopped && !this.destroyed) {
      try {
        const result = await this.#watch(url, version, this.#watchMs);
        if (loop.stopped || this.destroyed) return;
        if (result.version !== version) {
          version = result.version;
          this.notify(url, listener, this.#withEmpty(url, result.urls));
        }
      } catch {
        if (loop.stopped || this.destroyed) return;
        // The registry is away: keep the last lists, try again shortly.
        await new Promise((resolve) => setTimeout(resolve, this.#retryMs).unref());
      }
    }
  }

  async #watch(url: Url, known: number, waitMs: number): Promise<{ version: number; urls: string[] }> {
    const raw = (await this.#call("watch", [this.clientId, url.toFullString(), known, waitMs])) as Partial<
      Record<keyof WatchResult, unknown>
    > | null;
    const version = Number(raw?.version ?? 0);
    const urls = Array.isArray(raw?.urls) ? raw.urls.map((u) => String(u)) : [];
    return { version, urls };
  }

  /** The lists of a subscription with `empty://` for each subscribed category that has none. */
  #withEmpty(subscription: Url, texts: readonly string[]): Url[] {
    const urls: Url[] = [];
    for (const text of texts) {
      try {
        urls.push(Url.parse(text));
      } catch (error) {
        this.logger.warn(`skipping an unreadable URL from the embedded registry: ${text}`, error);
      }
    }
    if (subscription.serviceInterface === ANY_VALUE) return urls;
    const categories = splitList(subscription.string(CATEGORY_KEY, PROVIDERS_CATEGORY));
    if (categories.includes(ANY_VALUE)) return urls;
    const present = new Set(urls.map(categoryOf));
    for (const category of categories)
      if (!present.has(category)) urls.push(emptyUrl(subscription, category));
    return urls;
  }

  async #renew(): Promise<void> {
    let known: boolean;
    try {
      known = (await this.#call("renew", [this.clientId, this.#leaseMs])) === true;
    } catch (error) {
      if (this.#reachable && !this.destroyed) {
        this.#lostAt = Date.now();
        this.logger.warn(
          `embedded registry ${this.#serviceUrl.address}: connection lost (${(error as Error).message}); ` +
            "retrying, providers are kept meanwhile",
        );
      }
      this.#reachable = false;
      throw error;
    }
    const wasReachable = this.#reachable;
    this.#reachable = true;
    if (this.#lostAt !== undefined) {
      this.logger.info(
        `embedded registry ${this.#serviceUrl.address}: connection restored after ${Date.now() - this.#lostAt} ms`,
      );
      this.#lostAt = undefined;
    }
    if (!known && this.registered().length > 0) {
      this.logger.info(
        `embedded registry ${this.#serviceUrl.address} did not know this client; registering again`,
      );
      await this.recover();
    }
    if (!wasReachable) await this.retryNow();
  }

  #stopLoop(url: Url, listener: NotifyListener): void {
    const byUrl = this.#loops.get(listener);
    const loop = byUrl?.get(url.toFullString());
    if (byUrl === undefined || loop === undefined) return;
    loop.stopped = true;
    byUrl.delete(url.toFullString());
    if (byUrl.size === 0) this.#loops.delete(listener);
  }

  async #call(method: Method, args: unknown[]): Promise<unknown> {
    const invoker = this.#invoker;
    if (invoker === undefined || this.destroyed) {
      throw new RpcError(
        `the embedded registry client of ${this.url.address} is not started`,
        Code.FailedPrecondition,
      );
    }
    const definition = RegistryServiceContract.methods[method];
    const result = await invoker.invoke(
      createInvocation({
        service: EMBEDDED_REGISTRY_SERVICE,
        method,
        args,
        parameterTypes: definition.args,
        returnType: definition.returns,
      }),
    );
    return result.value;
  }
}

export async function createDubboRegistry(url: Url, options: RegistryOptions = {}): Promise<DubboRegistry> {
  const registry = new DubboRegistry(url, options);
  await registry.start();
  return registry;
}
