import { javaUrlDecode, type Url } from "../../core/index.js";
import type { NotifyListener, RegistryLogger } from "../registry.js";

/** What a `*` subscription needs from its registry. */
export interface AllServicesHost {
  subscribe(url: Url, listener: NotifyListener): Promise<void>;
  unsubscribe(url: Url, listener: NotifyListener): Promise<void>;
  /** Tells the listener that every category of a service is now empty. */
  notifyGone(subscription: Url, listener: NotifyListener): void;
  readonly logger: RegistryLogger;
}

/** The per-service subscription a `*` subscription makes for one service it found. */
function serviceSubscription(url: Url, service: string): Url {
  return url.with({ path: service }).withParams({ interface: service, check: "false" });
}

/**
 * One `*` subscription (interface `*`, for ops tools): the services listed under the root, each
 * subscribed on its own. A service that appears is subscribed; one that disappears (deleted by an
 * ops tool) is notified empty and unsubscribed, so it is neither kept nor leaked, and is picked up
 * afresh if it comes back. Listings apply one at a time, in order: the last one read holds.
 */
export class AllServicesSubscription {
  readonly #url: Url;
  readonly #listener: NotifyListener;
  readonly #host: AllServicesHost;
  readonly #known = new Set<string>();
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(url: Url, listener: NotifyListener, host: AllServicesHost) {
    this.#url = url;
    this.#listener = listener;
    this.#host = host;
  }

  /** Queues a root listing (encoded child names). */
  apply(children: readonly string[]): Promise<void> {
    this.#chain = this.#chain.then(() => this.#sync(children));
    return this.#chain;
  }

  /** Stops following the root and ends every per-service subscription. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#chain;
    for (const service of this.#known) {
      await this.#host.unsubscribe(serviceSubscription(this.#url, service), this.#listener);
    }
    this.#known.clear();
  }

  async #sync(children: readonly string[]): Promise<void> {
    const listed = new Set(children.map((child) => javaUrlDecode(child)));
    for (const service of [...this.#known]) {
      if (this.#closed || listed.has(service)) continue;
      this.#known.delete(service);
      const subscription = serviceSubscription(this.#url, service);
      this.#host.notifyGone(subscription, this.#listener);
      await this.#host
        .unsubscribe(subscription, this.#listener)
        .catch((error: unknown) =>
          this.#host.logger.warn(`could not unsubscribe from ${service}, gone`, error),
        );
    }
    for (const service of listed) {
      if (this.#closed || this.#known.has(service)) continue;
      this.#known.add(service);
      try {
        await this.#host.subscribe(serviceSubscription(this.#url, service), this.#listener);
      } catch (error) {
        this.#host.logger.warn(`could not subscribe to ${service} for a * subscription`, error);
      }
    }
  }
}
