import type { Url } from "../../core/index.js";
import type { ZkMetadataReport } from "../metadata/zk-metadata-report.js";
import type { NotifyListener, Registry, RegistryLogger } from "../registry.js";
import { CATEGORY_KEY, CONFIGURATORS_CATEGORY, ROUTERS_CATEGORY } from "../registry.js";
import { isEmptyUrl } from "../url-match.js";
import type { ZookeeperRegistry } from "../zookeeper/zookeeper-registry.js";
import { AppSubscription } from "./app-subscription.js";
import type { MetadataFetcher } from "./metadata-fetch.js";

/** The interface-level subscription of a reference's rules only. */
function rulesOf(url: Url): Url {
  return url.withParams({ [CATEGORY_KEY]: `${CONFIGURATORS_CATEGORY},${ROUTERS_CATEGORY}` });
}

/**
 * The consumer side of application-level discovery as a {@link Registry} (Java's
 * `ServiceDiscoveryRegistry`), so the same registry directory, routers and balancers serve it:
 * `subscribe` delivers the providers found through `/services/{app}` and each revision's metadata,
 * and passes on the interface's rules (`configurators`, `routers`) from the ZooKeeper registry, so
 * dubbo-admin's override and route rules steer both levels alike.
 * Consumers are not registered per application (Java registers none either); providers are
 * registered through `ApplicationDiscovery`.
 */
export class ServiceDiscoveryRegistry implements Registry {
  readonly url: Url;
  readonly registerMode = "instance";
  readonly #registry: ZookeeperRegistry;
  readonly #parts: { report: ZkMetadataReport; fetcher: MetadataFetcher; logger: RegistryLogger };
  readonly #subscriptions = new Set<AppSubscription>();
  readonly #stopListening: () => void;

  constructor(
    registry: ZookeeperRegistry,
    parts: { report: ZkMetadataReport; fetcher: MetadataFetcher; logger: RegistryLogger },
  ) {
    this.url = registry.url;
    this.#registry = registry;
    this.#parts = parts;
    this.#stopListening = registry.onNewSession(() => {
      for (const subscription of this.#subscriptions) void subscription.restart();
    });
  }

  async register(): Promise<void> {}

  async unregister(): Promise<void> {}

  async subscribe(url: Url, listener: NotifyListener): Promise<void> {
    const subscription = new AppSubscription(url, listener, { registry: this.#registry, ...this.#parts });
    this.#subscriptions.add(subscription);
    await this.#registry.subscribe(rulesOf(url), listener);
    // Java counts this as a service-level subscribe (`ServiceDiscoveryRegistry.subscribeURLs`).
    try {
      await subscription.start();
      this.#registry.reportOperation("subscribeService", url.serviceKey, true);
    } catch (error) {
      this.#registry.reportOperation("subscribeService", url.serviceKey, false);
      throw error;
    }
  }

  async unsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    const matching = [...this.#subscriptions].filter((s) => s.listener === listener && s.url.equals(url));
    for (const subscription of matching) this.#subscriptions.delete(subscription);
    await Promise.all(matching.map((s) => this.#unsubscribeOne(s)));
  }

  /** The providers application-level discovery sees for `url` now. */
  async lookup(url: Url): Promise<Url[]> {
    let found: Url[] = [];
    const once = new AppSubscription(
      url,
      (urls) => {
        found = urls.filter((u) => !isEmptyUrl(u));
      },
      { registry: this.#registry, ...this.#parts },
    );
    await once.start();
    once.close();
    return found;
  }

  isAvailable(): boolean {
    return this.#registry.isAvailable();
  }

  /** Stops every subscription; the ZooKeeper registry underneath is the application's to destroy. */
  async destroy(): Promise<void> {
    this.#stopListening();
    const subscriptions = [...this.#subscriptions];
    this.#subscriptions.clear();
    await Promise.all(subscriptions.map((s) => this.#unsubscribeOne(s)));
  }

  async #unsubscribeOne(subscription: AppSubscription): Promise<void> {
    subscription.close();
    await this.#registry.unsubscribe(rulesOf(subscription.url), subscription.listener).catch(() => {});
  }
}
