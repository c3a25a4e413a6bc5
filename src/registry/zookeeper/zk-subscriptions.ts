import type { Url } from "../../core/index.js";
import { ANY_VALUE, type ListChange, type NotifyListener, type RegistryLogger } from "../registry.js";
import { emptyUrl } from "../url-match.js";
import { type AllServicesHost, AllServicesSubscription } from "./all-services.js";
import { ChildNames } from "./child-names.js";
import { ChildUrls } from "./child-urls.js";
import { type ChildrenSubscriber, ChildrenWatch } from "./children-watch.js";
import type { ZkClient } from "./zk-client.js";
import { categoryPaths, lastSegment } from "./zk-paths.js";

interface Attached {
  readonly watch: ChildrenWatch;
  readonly subscriber: ChildrenSubscriber;
}

/** What the subscriptions need from their registry. */
export interface ZkSubscriptionsHost {
  /** `/dubbo` or `/` + the registry URL's `group`. */
  readonly root: string;
  /** The registry URL's address, for messages. */
  readonly address: string;
  readonly logger: RegistryLogger;
  /** The client of the current session: work begun on an older one is stale. */
  currentClient(): ZkClient;
  ensurePersistent(client: ZkClient, path: string): Promise<void>;
  notify(url: Url, listener: NotifyListener, urls: readonly Url[]): void;
  /** One category's list changed in place (see `ListChange`). */
  notifyChange(url: Url, listener: NotifyListener, change: ListChange): void;
  /** The registry's own subscribe/unsubscribe, which a `*` subscription uses per service found. */
  subscribe(url: Url, listener: NotifyListener): Promise<void>;
  unsubscribe(url: Url, listener: NotifyListener): Promise<void>;
}

/**
 * Subscriptions as ZooKeeper watches: one ChildrenWatch per category path, shared by every
 * listener on it, and the bookkeeping of which listener is attached to which watch, so a watch
 * closes with its last subscriber. Interface `*` follows every service under the root.
 */
export class ZkSubscriptions {
  readonly #host: ZkSubscriptionsHost;
  readonly #watches = new Map<string, ChildrenWatch>();
  readonly #attached = new Map<NotifyListener, Map<string, Attached[]>>();
  /** For `*` subscriptions: the services subscribed, per (listener, subscription URL). */
  readonly #anyServices = new Map<NotifyListener, Map<string, AllServicesSubscription>>();
  readonly #allServicesHost: AllServicesHost;

  constructor(host: ZkSubscriptionsHost) {
    this.#host = host;
    this.#allServicesHost = {
      subscribe: (url, listener) => host.subscribe(url, listener),
      unsubscribe: (url, listener) => host.unsubscribe(url, listener),
      notifyGone: (subscription, listener) =>
        host.notify(
          subscription,
          listener,
          categoryPaths(host.root, subscription).map((path) => emptyUrl(subscription, lastSegment(path))),
        ),
      logger: host.logger,
    };
  }

  /** The URLs registered now under `url`'s category paths, read once without a watch. */
  async lookup(url: Url): Promise<Url[]> {
    const out: Url[] = [];
    for (const path of categoryPaths(this.#host.root, url)) {
      const children = (await this.#host.currentClient().readChildren(path)) ?? ChildNames.EMPTY;
      out.push(...new ChildUrls(url, this.#host.root, this.#host.logger).urls(children));
    }
    return out;
  }

  async subscribe(client: ZkClient, url: Url, listener: NotifyListener): Promise<void> {
    if (url.serviceInterface === ANY_VALUE) return this.#subscribeAll(client, url, listener);
    const paths = categoryPaths(this.#host.root, url);
    for (const path of paths) await this.#host.ensurePersistent(client, path);
    const watches = paths.map((path) => this.#watch(client, path));
    await Promise.all(watches.map((w) => w.refresh()));
    // Parsed ahead, a bounded number per turn: the synchronous part below then finds them parsed.
    const childUrls = watches.map(() => new ChildUrls(url, this.#host.root, this.#host.logger));
    await Promise.all(childUrls.map((c, i) => c.prepare(watches[i]?.children ?? ChildNames.EMPTY)));
    this.#assertCurrent(client, url);
    // From here on synchronous: attach, then notify the lists as they are now, so no change is lost.
    this.#detach(url, listener);
    const attached = watches.map((watch, i) => {
      const subscriber = this.#subscriber(url, listener, watch.path, childUrls[i]!);
      watch.add(subscriber);
      return { watch, subscriber };
    });
    this.#attach(url, listener, attached);
    this.#host.notify(
      url,
      listener,
      watches.flatMap((w, i) => withEmpty(url, w.path, childUrls[i]!.urls(w.children ?? ChildNames.EMPTY))),
    );
  }

  /**
   * Hears one path's new reads for one listener: a change of a few children among many goes on as
   * a change (the registry and the directory then pay for those few); a first read, and a list
   * that empties or fills, go on as the full list with its `empty://`.
   */
  #subscriber(url: Url, listener: NotifyListener, path: string, childUrls: ChildUrls): ChildrenSubscriber {
    const category = lastSegment(path);
    return (children, previous, splice) => {
      const { urls, change } = childUrls.read(children, previous, splice);
      if (change === undefined || urls.length === 0) {
        this.#host.notify(url, listener, withEmpty(url, path, urls));
        return;
      }
      this.#host.notifyChange(url, listener, { category, after: urls, ...change });
    };
  }

  /** Interface `*` (ops tools): watch the root for services and follow each one (all-services.ts). */
  async #subscribeAll(client: ZkClient, url: Url, listener: NotifyListener): Promise<void> {
    const root = this.#host.root;
    await this.#host.ensurePersistent(client, root);
    const watch = this.#watch(client, root);
    await watch.refresh();
    this.#assertCurrent(client, url);
    this.#detach(url, listener);
    let byUrl = this.#anyServices.get(listener);
    if (byUrl === undefined) {
      byUrl = new Map();
      this.#anyServices.set(listener, byUrl);
    }
    let all = byUrl.get(url.toFullString());
    if (all === undefined) {
      all = new AllServicesSubscription(url, listener, this.#allServicesHost);
      byUrl.set(url.toFullString(), all);
    }
    const following = all;
    const subscriber: ChildrenSubscriber = (children) => {
      void following.apply(children.toArray());
    };
    watch.add(subscriber);
    this.#attach(url, listener, [{ watch, subscriber }]);
    await following.apply(watch.children?.toArray() ?? []);
  }

  /** Detaches `listener`; for a `*` subscription, also stops following its services. */
  async unsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    this.#detach(url, listener);
    if (url.serviceInterface !== ANY_VALUE) return;
    const byUrl = this.#anyServices.get(listener);
    const all = byUrl?.get(url.toFullString());
    if (byUrl === undefined || all === undefined) return;
    byUrl.delete(url.toFullString());
    if (byUrl.size === 0) this.#anyServices.delete(listener);
    await all.close();
  }

  /** Same session after a connection loss: re-read every watched path in case an event was missed. */
  refreshAll(): void {
    for (const watch of [...this.#watches.values()])
      watch
        .refresh()
        .catch((error: unknown) => this.#host.logger.warn(`could not re-read ${watch.path}`, error));
  }

  /** Closes every watch and forgets who was attached (the session is gone, or the registry is). */
  closeWatches(): void {
    for (const watch of this.#watches.values()) watch.close();
    this.#watches.clear();
    this.#attached.clear();
  }

  #watch(client: ZkClient, path: string): ChildrenWatch {
    let watch = this.#watches.get(path);
    if (watch === undefined) {
      watch = new ChildrenWatch(path, client, (p, error) =>
        this.#host.logger.warn(
          `could not re-read ${p} at ZooKeeper ${this.#host.address}; re-reading on reconnect`,
          error,
        ),
      );
      this.#watches.set(path, watch);
    }
    return watch;
  }

  #attach(url: Url, listener: NotifyListener, attached: Attached[]): void {
    let byUrl = this.#attached.get(listener);
    if (byUrl === undefined) {
      byUrl = new Map();
      this.#attached.set(listener, byUrl);
    }
    byUrl.set(url.toFullString(), attached);
  }

  #detach(url: Url, listener: NotifyListener): void {
    const byUrl = this.#attached.get(listener);
    const attached = byUrl?.get(url.toFullString());
    if (byUrl === undefined || attached === undefined) return;
    byUrl.delete(url.toFullString());
    if (byUrl.size === 0) this.#attached.delete(listener);
    for (const { watch, subscriber } of attached) {
      watch.delete(subscriber);
      if (watch.size === 0 && this.#watches.get(watch.path) === watch) {
        watch.close();
        this.#watches.delete(watch.path);
      }
    }
  }

  /** A session that changed while we awaited makes the work stale: fail so it is redone on the new one. */
  #assertCurrent(client: ZkClient, url: Url): void {
    if (client !== this.#host.currentClient()) {
      throw new Error(`the ZooKeeper session changed while subscribing to ${url.serviceKey}`);
    }
  }
}

/** One path's URLs, or the path's `empty://` when none. */
function withEmpty(subscription: Url, path: string, urls: Url[]): Url[] {
  return urls.length > 0 ? urls : [emptyUrl(subscription, lastSegment(path))];
}
