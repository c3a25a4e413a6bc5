import type { Url } from "../../core/index.js";
import type { RegistryOptions } from "../abstract-registry.js";
import { FailbackRegistry } from "../failback-registry.js";
import type { NotifyListener } from "../registry.js";
import type { ZkClient } from "./zk-client.js";
import { rootPath } from "./zk-paths.js";
import { ZkRegistration } from "./zk-registration.js";
import { ZkSession } from "./zk-session.js";
import { ZkSubscriptions } from "./zk-subscriptions.js";
import { IS_ZOOKEEPER_REGISTRY } from "./zookeeper-brand.js";

/**
 * The ZooKeeper registry, laid out exactly as Java Dubbo 2.7 lays it out (see zk-paths.ts).
 *
 * Registry URL: `zookeeper://host:port?backup=host2:port,host3:port&zk.session.expire=60000&timeout=5000`
 * (`session=` is read when `zk.session.expire` is absent)
 * `&group=dubbo` (the root), credentials as `zookeeper://user:password@…` or `username=`/`password=`
 * (ZooKeeper `digest` auth).
 *
 * Connection loss: a reconnect within the same session loses nothing (ephemeral nodes stay, the
 * client re-installs its watches); every watched path is re-read and pending retries run at once.
 * Session expiry: a new session is opened, then every URL is registered again (a node still held by
 * the dead session is deleted and recreated) and every subscription re-read. A connection that stays
 * down for longer than the session timeout counts as an expiry (as in Curator), which is also how a
 * server restarted without its data (it refuses the old session for ever) is recovered from. Subscribers never get
 * an empty list because the connection dropped: while disconnected nothing is notified.
 *
 * The parts: zk-session.ts (connection and session lifecycle), zk-registration.ts (our nodes),
 * zk-subscriptions.ts (watches and who listens to them); this class wires them to the failback
 * registry's retry and recovery.
 */
export class ZookeeperRegistry extends FailbackRegistry {
  readonly [IS_ZOOKEEPER_REGISTRY] = true;
  /** `/dubbo` or `/` + the registry URL's `group`. */
  readonly root: string;
  readonly #registration: ZkRegistration;
  readonly #subscriptions: ZkSubscriptions;
  readonly #session: ZkSession;
  readonly #sessionListeners = new Set<() => void>();

  constructor(url: Url, options: RegistryOptions = {}) {
    super(url, options);
    const root = rootPath(url);
    const logger = this.logger;
    this.root = root;
    const registration = new ZkRegistration(root, logger);
    this.#registration = registration;
    this.#subscriptions = new ZkSubscriptions({
      root,
      address: url.address,
      logger,
      currentClient: () => this.#session.client,
      ensurePersistent: (client, path) => registration.ensurePersistent(client, path),
      notify: (subscription, listener, urls) => this.notify(subscription, listener, urls),
      notifyChange: (subscription, listener, change) => this.notifyChange(subscription, listener, change),
      subscribe: (subscription, listener) => this.subscribe(subscription, listener),
      unsubscribe: (subscription, listener) => this.unsubscribe(subscription, listener),
    });
    this.#session = new ZkSession(url, logger, {
      isDestroyed: () => this.destroyed,
      onNewSession: () => {
        void this.recover();
        for (const listener of [...this.#sessionListeners]) listener();
      },
      onReconnected: () => {
        // Same session: nodes and watches survived. Re-read in case an event was missed, make sure
        // every registration exists (one that failed while down may have used up its retries),
        // and run pending retries now rather than at the next tick.
        this.#subscriptions.refreshAll();
        void this.recoverRegistered().then(() => this.retryNow());
      },
      onClientReplaced: () => {
        this.#subscriptions.closeWatches();
        registration.forgetPersistentPaths();
      },
    });
  }

  /**
   * Connects, waiting up to `timeout` ms. With `check=true` (default) a failure is an error;
   * with `check=false` the registry keeps trying in the background and recovers when connected.
   */
  async start(): Promise<void> {
    await this.#session.start();
  }

  isAvailable(): boolean {
    return !this.destroyed && this.#session.client.connected;
  }

  /** The current session (for diagnostics and for tests that expire it on purpose). */
  get session(): { readonly id: string; readonly password: Buffer; readonly timeoutMs: number } {
    const client = this.#session.client;
    return { id: client.sessionId, password: client.sessionPassword, timeoutMs: client.sessionTimeoutMs };
  }

  /** The current client: application-level discovery (Dubbo 3) shares this registry's session. */
  get client(): ZkClient {
    return this.#session.client;
  }

  /**
   * Calls `listener` after each new session (after an expiry): nodes written through `client`
   * outside the registry's own bookkeeping must then be written again. Returns the way to stop.
   */
  onNewSession(listener: () => void): () => void {
    this.#sessionListeners.add(listener);
    return () => this.#sessionListeners.delete(listener);
  }

  override async lookup(url: Url): Promise<Url[]> {
    return this.#subscriptions.lookup(url);
  }

  protected async doRegister(url: Url): Promise<void> {
    await this.#registration.register(this.#session.client, url);
  }

  protected async doUnregister(url: Url): Promise<void> {
    await this.#registration.unregister(this.#session.client, url);
  }

  protected async doSubscribe(url: Url, listener: NotifyListener): Promise<void> {
    await this.#subscriptions.subscribe(this.#session.client, url, listener);
  }

  protected async doUnsubscribe(url: Url, listener: NotifyListener): Promise<void> {
    await this.#subscriptions.unsubscribe(url, listener);
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    this.#subscriptions.closeWatches();
    this.#session.close();
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
