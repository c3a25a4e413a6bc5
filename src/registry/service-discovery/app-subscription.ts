import type { Url } from "../../core/index.js";
import type { MetadataInfo } from "../metadata/metadata-info.js";
import type { ZkMetadataReport } from "../metadata/zk-metadata-report.js";
import type { NotifyListener, RegistryLogger } from "../registry.js";
import { PROVIDERS_CATEGORY, REGISTRY_LOG } from "../registry.js";
import { emptyUrl } from "../url-match.js";
import { ChildrenWatch } from "../zookeeper/children-watch.js";
import type { ZookeeperRegistry } from "../zookeeper/zookeeper-registry.js";
import { providerUrlsOf } from "./instance-urls.js";
import { type MetadataFetcher, revisionOfInstance } from "./metadata-fetch.js";
import { parseInstanceJson, type ServiceInstance } from "./service-instance.js";
import { servicesRootOf } from "./zk-instance-registration.js";

/** Java's consumer key naming the provider applications, which skips the mapping lookup. */
const PROVIDED_BY_KEY = "provided-by";

export interface AppSubscriptionParts {
  readonly registry: ZookeeperRegistry;
  readonly report: ZkMetadataReport;
  readonly fetcher: MetadataFetcher;
  readonly logger: RegistryLogger;
}

/**
 * One reference's application-level subscription (Java's `ServiceDiscoveryRegistry.subscribe`):
 * the provider applications (`provided-by`, else `/dubbo/mapping/{interface}`, watched), each
 * application's instances under `/services/{app}` (children and each node's data watched), each
 * revision's metadata, and from them the full provider list, delivered as a `providers`
 * notification (`empty://` when there is none). Changes are handled one at a time, in order.
 */
export class AppSubscription {
  readonly url: Url;
  readonly listener: NotifyListener;
  readonly #parts: AppSubscriptionParts;
  readonly #watches = new Map<string, ChildrenWatch>();
  readonly #instances = new Map<string, readonly ServiceInstance[]>();
  readonly #metadata = new Map<string, MetadataInfo>();
  readonly #dataWatchers = new Map<string, () => void>();
  #apps: readonly string[] = [];
  #chain: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #onMappingChange = (): void => {
    this.#enqueue(() => this.#readApps());
  };

  constructor(url: Url, listener: NotifyListener, parts: AppSubscriptionParts) {
    this.url = url;
    this.listener = listener;
    this.#parts = parts;
  }

  /** Reads everything once and delivers the first list before resolving. */
  start(): Promise<void> {
    // ZooKeeper not connected (check=false, an outage): the registry's retry reads it all once it
    // is back; a new session's restart() reads it again.
    return this.#parts.registry.runOrRetry(`discover the providers of ${this.url.toFullString()}`, () =>
      this.#enqueue(() => this.#readApps()),
    );
  }

  /** After a new ZooKeeper session: watches belong to the old one; read and watch everything again. */
  restart(): Promise<void> {
    this.#closeWatches();
    return this.start();
  }

  close(): void {
    this.#closed = true;
    this.#closeWatches();
  }

  /** One watcher function per application, so the client keeps one data watch per node, however often it is re-read. */
  #dataWatcherOf(app: string): () => void {
    let watcher = this.#dataWatchers.get(app);
    if (watcher === undefined) {
      watcher = () => {
        void this.#enqueue(() => this.#readInstances(app).then(() => this.#notify()));
      };
      this.#dataWatchers.set(app, watcher);
    }
    return watcher;
  }

  #closeWatches(): void {
    for (const watch of this.#watches.values()) watch.close();
    this.#watches.clear();
  }

  #enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.#chain.then(() => (this.#closed ? undefined : step()));
    this.#chain = run.catch((error: unknown) => {
      if (this.#parts.registry.isAvailable()) {
        this.#parts.logger.warn(`application-level discovery of ${this.url.serviceKey} failed`, error);
      } else {
        this.#parts.logger.debug(
          REGISTRY_LOG,
          `application-level discovery of ${this.url.serviceKey} waits for ZooKeeper: ${String(error)}`,
        );
      }
    });
    return run;
  }

  async #readApps(): Promise<void> {
    const providedBy = this.url.list(PROVIDED_BY_KEY);
    this.#apps =
      providedBy.length > 0
        ? providedBy
        : await this.#parts.report.readMapping(this.url.serviceInterface, this.#onMappingChange);
    for (const [app, watch] of this.#watches) {
      if (this.#apps.includes(app)) continue;
      watch.close();
      this.#watches.delete(app);
      this.#instances.delete(app);
    }
    for (const app of this.#apps) {
      if (this.#watches.has(app)) continue;
      const watch = new ChildrenWatch(
        `${servicesRootOf(this.#parts.registry.url)}/${app}`,
        this.#parts.registry.client,
        (path, error) => this.#parts.logger.warn(`could not read the instances under ${path}`, error),
      );
      watch.add(() => {
        void this.#enqueue(() => this.#readInstances(app).then(() => this.#notify()));
      });
      this.#watches.set(app, watch);
      await watch.refresh();
    }
    await Promise.all(this.#apps.map((app) => this.#readInstances(app)));
    this.#notify();
  }

  /** Reads the instance nodes of `app`, each with a data watch (its revision may change). */
  async #readInstances(app: string): Promise<void> {
    const watch = this.#watches.get(app);
    if (watch === undefined) return;
    const client = this.#parts.registry.client;
    const onDataChange = this.#dataWatcherOf(app);
    const instances: ServiceInstance[] = [];
    for (const child of watch.children?.toArray() ?? []) {
      const path = `${watch.path}/${child}`;
      const node = await client.getData(path, onDataChange);
      if (node === undefined) continue;
      try {
        instances.push(parseInstanceJson(node.data.toString("utf8"), path));
      } catch (error) {
        this.#parts.logger.warn(`ignoring instance node ${path}`, error);
      }
    }
    await Promise.all(instances.map((i) => this.#loadMetadata(i)));
    this.#instances.set(app, instances);
  }

  async #loadMetadata(instance: ServiceInstance): Promise<void> {
    const key = `${instance.name}/${revisionOfInstance(instance) ?? ""}`;
    if (this.#metadata.has(key)) return;
    try {
      this.#metadata.set(key, await this.#parts.fetcher.fetch(instance));
    } catch (error) {
      this.#parts.logger.warn(
        `could not read the metadata of ${instance.name} at ${instance.host}:${instance.port}; leaving it out`,
        error,
      );
    }
  }

  #notify(): void {
    if (this.#closed) return;
    const instances = this.#apps.flatMap((app) => this.#instances.get(app) ?? []);
    const urls = providerUrlsOf(
      instances,
      (i) => this.#metadata.get(`${i.name}/${revisionOfInstance(i) ?? ""}`),
      this.url,
    );
    this.listener(urls.length > 0 ? urls : [emptyUrl(this.url, PROVIDERS_CATEGORY)]);
  }
}
