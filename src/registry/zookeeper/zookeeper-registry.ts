import {
  DEFAULT_CHECK,
  DEFAULT_DYNAMIC,
  DEFAULT_REGISTRY_SESSION_MS,
  DEFAULT_REGISTRY_TIMEOUT_MS,
  Url,
} from "../../core/index.js";
import type { RegistryOptions } from "../abstract-registry.js";
import { FailbackRegistry } from "../failback-registry.js";
import { ANY_VALUE, type NotifyListener } from "../registry.js";
import type { RegistryFactory } from "../registry-factory.js";
import { emptyUrl, isMatch } from "../url-match.js";
import { type AllServicesHost, AllServicesSubscription } from "./all-services.js";
import { type ChildrenSubscriber, ChildrenWatch } from "./children-watch.js";
import { ZkClient, type ZkClientOptions, ZkErrorCode, type ZkState, zkErrorCode } from "./zk-client.js";
import {
  categoryPaths,
  ENCODED_PROTOCOL_SEPARATOR,
  lastSegment,
  parentPath,
  rootPath,
  urlPath,
} from "./zk-paths.js";

interface Attached {
  readonly watch: ChildrenWatch;
  readonly subscriber: ChildrenSubscriber;
}

/**
 * The ZooKeeper registry, laid out exactly as Java Dubbo 2.7 lays it out (see zk-paths.ts).
 *
 * Registry URL: `zookeeper://host:port?backup=host2:port,host3:port&session=60000&timeout=5000`
 * `&group=dubbo` (the root), credentials as `zookeeper://user:password@…` or `username=`/`password=`
 * (ZooKeeper `digest` auth).
 *
 * Connection loss: a reconnect within the same session loses nothing (ephemeral nodes stay, the
 * client re-installs its watches); every watched path is re-read and pending retries run at once.
 * Session expiry: a new session is opened, then every URL is registered again (a node still held by
 * the dead session is deleted and recreated) and every subscription re-read. Subscribers never get
 * an empty list because the connection dropped: while disconnected nothing is notified.
 */
export class ZookeeperRegistry extends FailbackRegistry {
  /** `/dubbo` or `/` + the registry URL's `group`. */
  readonly root: string;
  readonly #clientOptions: ZkClientOptions;
  readonly #timeoutMs: number;
  #client: ZkClient;
  #wasConnected = false;
  #needsRecovery = false;
  readonly #watches = new Map<string, ChildrenWatch>();
  readonly #attached = new Map<NotifyListener, Map<string, Attached[]>>();
  /** For `*` subscriptions: the services subscribed, per (listener, subscription URL). */
  readonly #anyServices = new Map<NotifyListener, Map<string, AllServicesSubscription>>();
  readonly #allServicesHost: AllServicesHost = {
    subscribe: (url, listener) => this.subscribe(url, listener),
    unsubscribe: (url, listener) => this.unsubscribe(url, listener),
    notifyGone: (subscription, listener) =>
      this.notify(
        subscription,
        listener,
        categoryPaths(this.root, subscription).map((path) => emptyUrl(subscription, lastSegment(path))),
      ),
    logger: { warn: (message, error) => this.logger.warn(message, error) },
  };
  readonly #persistent = new Set<string>();

  constructor(url: Url, options: RegistryOptions = {}) {
    super(url, options);
    this.root = rootPath(url);
    this.#timeoutMs = url.number("timeout", DEFAULT_REGISTRY_TIMEOUT_MS);
    const username = url.username ?? url.get("username");
    const password = url.password ?? url.get("password");
    this.#clientOptions = {
      connectString: [url.address, ...url.list("backup")].join(","),
      sessionTimeoutMs: url.number("session", DEFAULT_REGISTRY_SESSION_MS),
      operationTimeoutMs: this.#timeoutMs,
      digest: username === undefined || username === "" ? undefined : `${username}:${password ?? ""}`,
      onBadReply: (error) =>
        this.logger.warn(`ZooKeeper ${url.address} sent a reply that could not be read; reconnecting`, error),
    };
    this.#client = this.#newClient();
  }

  /**
   * Connects, waiting up to `timeout` ms. With `check=true` (default) a failure is an error;
   * with `check=false` the registry keeps trying in the background and recovers when connected.
   */
  async start(): Promise<void> {
    try {
      await this.#client.connect(this.#timeoutMs);
      this.#wasConnected = true;
    } catch (error) {
      if (this.url.boolean("check", DEFAULT_CHECK)) {
        this.#client.close();
        throw error;
      }
      this.logger.warn(`${(error as Error).message}; retrying in the background (check=false)`);
      this.#needsRecovery = true;
    }
  }

  isAvailable(): boolean {
    return !this.destroyed && this.#client.connected;
  }

  /** The current session (for diagnostics and for tests that expire it on purpose). */
  get session(): { readonly id: string; readonly password: Buffer } {
    return { id: this.#client.sessionId, password: this.#client.sessionPassword };
  }

  override async lookup(url: Url): Promise<Url[]> {
    const out: Url[] = [];
    for (const path of categoryPaths(this.root, url)) {
      out.push(...this.#toUrls(url, (await this.#client.getChildren(path)) ?? []));
    }
    return out;
  }

  protected async doRegister(url: Url): Promise<void> {
    const client = this.#client;
    const path = urlPath(this.root, url);
    const ephemeral = url.boolean("dynamic", DEFAULT_DYNAMIC);
    await this.#ensurePersistent(client, parentPath(path));
    try {
      await this.#createUnder(client, path, ephemeral);
      return;
    } catch (error) {
      if (zkErrorCode(error) !== ZkErrorCode.NODE_EXISTS) throw error;
    }
    if (!ephemeral) return;
    // The node exists: ours (a retry that already succeeded) or left by another session, e.g. our
    // expired one that the server has not reaped yet. Take it over (apache/dubbo#5135).
    const stat = await client.stat(path);
    if (stat !== undefined && stat.ephemeralOwner === client.sessionId) return;
    this.logger.warn(
      `${path} is held by session 0x${stat?.ephemeralOwner ?? "?"}, not ours (0x${client.sessionId}); recreating it`,
    );
    await client.remove(path).catch((error: unknown) => {
      if (zkErrorCode(error) !== ZkErrorCode.NO_NODE) throw error;
    });
    await client.create(path, true);
  }

  protected async doUnregister(url: Url): Promise<void> {
    await this.#client.remove(urlPath(this.root, url)).catch((error: unknown) => {
      if (zkErrorCode(error) !== ZkErrorCode.NO_NODE) throw error;
    });
  }

  protected async doSubscribe(url: Url, listener: NotifyListener): Promise<void> {
    if (url.serviceInterface === ANY_VALUE) return this.#subscribeAll(url, listener);
    const client = this.#client;
    const paths = categoryPaths(this.root, url);
    for (const path of paths) await this.#ensurePersistent(client, path);
    const watches = paths.map((path) => this.#watch(client, path));
    await Promise.all(watches.map((w) => w.refresh()));
    this.#assertCurrent(client, url);
    // From here on synchronous: attach, then notify the lists as they are now, so no change is lost.
    this.#detach(url, listener);
    const attached = watches.map((watch) => {
      const subscriber: ChildrenSubscriber = (children) =>
        this.notify(url, listener, this.#toUrlsWithEmpty(url, watch.path, children));
      watch.add(subscriber);
      return { watch, subscriber };
    });
    this.#attach(url, listener, attached);
    this.notify(
      url,
      listener,
      watches.flatMap((w) => this.#toUrlsWithEmpty(url, w.path, w.children ?? [])),
    );
  }

  protected async doUnsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    this.#detach(url, listener);
    if (url.serviceInterface !== ANY_VALUE) return;
    const byUrl = this.#anyServices.get(listener);
    const all = byUrl?.get(url.toFullString());
    if (byUrl === undefined || all === undefined) return;
    byUrl.delete(url.toFullString());
    if (byUrl.size === 0) this.#anyServices.delete(listener);
    await all.close();
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    for (const watch of this.#watches.values()) watch.close();
    this.#watches.clear();
    this.#attached.clear();
    this.#client.close();
  }

  /** Interface `*` (ops tools): watch the root for services and follow each one (all-services.ts). */
  async #subscribeAll(url: Url, listener: NotifyListener): Promise<void> {
    const client = this.#client;
    await this.#ensurePersistent(client, this.root);
    const watch = this.#watch(client, this.root);
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
      void following.apply(children);
    };
    watch.add(subscriber);
    this.#attach(url, listener, [{ watch, subscriber }]);
    await following.apply(watch.children ?? []);
  }

  #toUrls(subscription: Url, children: readonly string[]): Url[] {
    const out: Url[] = [];
    for (const child of children) {
      // Java reads only children that contain an encoded "://".
      if (!child.includes(ENCODED_PROTOCOL_SEPARATOR)) continue;
      let url: Url;
      try {
        url = Url.decode(child);
      } catch (error) {
        this.logger.warn(`skipping unreadable ZooKeeper node "${child}" under ${this.root}`, error);
        continue;
      }
      if (isMatch(subscription, url)) out.push(url);
    }
    return out;
  }

  #toUrlsWithEmpty(subscription: Url, path: string, children: readonly string[]): Url[] {
    const urls = this.#toUrls(subscription, children);
    return urls.length > 0 ? urls : [emptyUrl(subscription, lastSegment(path))];
  }

  #watch(client: ZkClient, path: string): ChildrenWatch {
    let watch = this.#watches.get(path);
    if (watch === undefined) {
      watch = new ChildrenWatch(path, client, (p, error) =>
        this.logger.warn(
          `could not re-read ${p} at ZooKeeper ${this.url.address}; re-reading on reconnect`,
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

  /**
   * Creates a node whose parents we believe exist. An ops tool may have deleted them since (e.g. a
   * service tree cleaned up by hand): then the parents are forgotten, created again, and the create
   * retried once, rather than failing every retry on a stale belief.
   */
  async #createUnder(client: ZkClient, path: string, ephemeral: boolean): Promise<void> {
    try {
      await client.create(path, ephemeral);
    } catch (error) {
      if (zkErrorCode(error) !== ZkErrorCode.NO_NODE) throw error;
      for (const known of [...this.#persistent])
        if (path.startsWith(`${known}/`)) this.#persistent.delete(known);
      await this.#ensurePersistent(client, parentPath(path));
      await client.create(path, ephemeral);
    }
  }

  async #ensurePersistent(client: ZkClient, path: string): Promise<void> {
    if (this.#persistent.has(path)) return;
    await client.mkdirp(path);
    this.#persistent.add(path);
  }

  /** A session that changed while we awaited makes the work stale: fail so it is redone on the new one. */
  #assertCurrent(client: ZkClient, url: Url): void {
    if (client !== this.#client) {
      throw new Error(`the ZooKeeper session changed while subscribing to ${url.serviceKey}`);
    }
  }

  #newClient(): ZkClient {
    const client = new ZkClient(this.#clientOptions);
    client.onState((state) => this.#onState(client, state));
    return client;
  }

  #onState(client: ZkClient, state: ZkState): void {
    if (client !== this.#client || this.destroyed) return;
    switch (state) {
      case "connected":
        if (this.#needsRecovery) {
          this.#needsRecovery = false;
          this.#wasConnected = true;
          this.logger.info?.(`ZooKeeper ${this.url.address}: new session 0x${client.sessionId}, recovering`);
          void this.recover();
        } else if (this.#wasConnected) {
          // Same session: nodes and watches survived. Re-read in case an event was missed, make sure
          // every registration exists (one that failed while down may have used up its retries),
          // and run pending retries now rather than at the next tick.
          for (const watch of [...this.#watches.values()])
            watch
              .refresh()
              .catch((error: unknown) => this.logger.warn(`could not re-read ${watch.path}`, error));
          void this.recoverRegistered().then(() => this.retryNow());
        }
        this.#wasConnected = true;
        return;
      case "expired":
        this.logger.warn(
          `ZooKeeper ${this.url.address}: session 0x${client.sessionId} expired; opening a new session and re-registering`,
        );
        this.#replaceClient();
        return;
      case "auth-failed":
        this.logger.warn(
          `ZooKeeper ${this.url.address} rejected the digest credentials (check username/password of the registry URL)`,
        );
        return;
      case "disconnected":
        return;
    }
  }

  #replaceClient(): void {
    this.#client.close();
    for (const watch of this.#watches.values()) watch.close();
    this.#watches.clear();
    this.#attached.clear();
    this.#needsRecovery = true;
    this.#client = this.#newClient();
    this.#client.connect(this.#timeoutMs).catch(() => {
      // The client keeps trying; recovery runs on the "connected" event.
    });
  }
}

export async function createZookeeperRegistry(
  url: Url,
  options: RegistryOptions = {},
): Promise<ZookeeperRegistry> {
  const registry = new ZookeeperRegistry(url, options);
  await registry.start();
  return registry;
}

/** The `zookeeper` registry factory, for `createRegistryFactories([["zookeeper", zookeeperRegistryFactory]])`. */
export const zookeeperRegistryFactory: RegistryFactory = (url, context) =>
  createZookeeperRegistry(url, { logger: context.logger });
