import type { Url } from "../../core/index.js";
import { EMPTY_REVISION, type MetadataInfo, metadataInfoOf } from "../metadata/metadata-info.js";
import type { ZkMetadataReport } from "../metadata/zk-metadata-report.js";
import type { RegistryLogger } from "../registry.js";
import { ZkErrorCode, zkErrorCode } from "../zookeeper/zk-client.js";
import type { ZookeeperRegistry } from "../zookeeper/zookeeper-registry.js";
import {
  ENDPOINTS_KEY,
  endpointsJson,
  instanceId,
  instanceJson,
  LOCAL_STORAGE,
  METADATA_SERVICE_PARAMS_KEY,
  METADATA_SERVICE_VERSION_KEY,
  REMOTE_STORAGE,
  REVISION_KEY,
  type ServiceInstance,
  STORAGE_TYPE_KEY,
} from "./service-instance.js";

/** Java's default instance root (`ZookeeperServiceDiscovery.DEFAULT_GROUP`). */
const DEFAULT_SERVICES_ROOT = "/services";

/**
 * Where instances live (Java's `CuratorFrameworkUtils.getRootPath`): the registry URL's `rootPath`,
 * else its `group` (a group `secured` puts instances under `/secured/{app}`), else `/services`.
 */
export function servicesRootOf(registryUrl: Url): string {
  const rootPath = registryUrl.string("rootPath", DEFAULT_SERVICES_ROOT);
  if (rootPath.toLowerCase() !== DEFAULT_SERVICES_ROOT) return rootPath;
  const group = registryUrl.string("group", DEFAULT_SERVICES_ROOT);
  return group.startsWith("/") ? group : `/${group}`;
}
/** Provider URL keys that describe the instance rather than a service (Java's `instanceParamsIncluded`). */
const INSTANCE_PARAMS = ["heartbeat.timeout", "timestamp", "ipv6"];

export interface InstanceRegistrationOptions {
  readonly app: string;
  /** `local` (consumers call the metadata service) or `remote` (`/dubbo/metadata/...`). */
  readonly storageType: string;
  readonly report: ZkMetadataReport;
  /** Java's `dubbo.metadata-service.url-params` of the exported metadata service (local storage). */
  readonly metadataServiceParams: () => string | undefined;
  readonly logger: RegistryLogger;
}

/**
 * One application's instance in one ZooKeeper registry (Java's `ServiceDiscoveryRegistry` with
 * `ZookeeperServiceDiscovery`): the services it registered make the metadata and its revision; the
 * ephemeral node `/services/{app}/{host}:{port}` (see {@link servicesRootOf}) carries the revision, and is rewritten when a
 * service comes or goes (removed when the last one goes) and after a session expiry. Each
 * registered interface is also added to `/dubbo/mapping/{interface}`. The instance listens where
 * its first registered service does.
 */
export class ZkInstanceRegistration {
  readonly #registry: ZookeeperRegistry;
  readonly #options: InstanceRegistrationOptions;
  readonly #urls = new Map<string, Url>();
  readonly #stopListening: () => void;
  #metadata: MetadataInfo;
  #written: string | undefined;
  #registeredAt = 0;
  #chain: Promise<void> = Promise.resolve();
  /** Interfaces whose `/dubbo/mapping` entry is still to be written (again after a new session). */
  readonly #unmapped = new Set<string>();

  constructor(registry: ZookeeperRegistry, options: InstanceRegistrationOptions) {
    this.#registry = registry;
    this.#options = options;
    this.#metadata = metadataInfoOf(options.app, []);
    this.#stopListening = registry.onNewSession(() => {
      this.#written = undefined;
      for (const url of this.#urls.values()) this.#unmapped.add(url.serviceInterface);
      this.#enqueue().catch((error: unknown) =>
        options.logger.warn(`could not register instance of ${options.app} again after a new session`, error),
      );
    });
  }

  /** The metadata of what is registered now. */
  get metadata(): MetadataInfo {
    return this.#metadata;
  }

  async add(url: Url): Promise<void> {
    this.#urls.set(url.toFullString(), url);
    this.#unmapped.add(url.serviceInterface);
    try {
      await this.#syncOrRetry();
      this.#registry.reportOperation("registerInstance", this.#options.app, true);
    } catch (error) {
      this.#registry.reportOperation("registerInstance", this.#options.app, false);
      throw error;
    }
  }

  async remove(url: Url): Promise<void> {
    this.#urls.delete(url.toFullString());
    await this.#syncOrRetry();
  }

  /** Removes the instance node and stops following the session. */
  async destroy(): Promise<void> {
    this.#stopListening();
    this.#urls.clear();
    // Not connected: the node is ephemeral and goes with its session.
    if (!this.#registry.isAvailable()) return;
    await this.#enqueue();
  }

  /**
   * Writes the instance (and mappings) as they are now; while ZooKeeper is unreachable the
   * registry's retry writes them once it is back (a reconnect within the session included).
   */
  #syncOrRetry(): Promise<void> {
    return this.#registry.runOrRetry(`write the instance of ${this.#options.app}`, () => this.#enqueue());
  }

  #enqueue(): Promise<void> {
    const run = this.#chain.then(() => this.#sync());
    this.#chain = run.catch(() => {});
    return run;
  }

  #instance(first: Url, metadata: MetadataInfo): ServiceInstance {
    const ports = new Map<string, number>();
    for (const url of this.#urls.values()) ports.set(url.protocol, url.port);
    const extra: Record<string, string> = {};
    for (const key of INSTANCE_PARAMS) {
      const value = first.get(key);
      if (value !== undefined) extra[key] = value;
    }
    const params =
      this.#options.storageType === LOCAL_STORAGE ? this.#options.metadataServiceParams() : undefined;
    return {
      name: this.#options.app,
      host: first.host,
      port: first.port,
      metadata: {
        ...extra,
        [ENDPOINTS_KEY]: endpointsJson(ports),
        ...(params === undefined ? {} : { [METADATA_SERVICE_PARAMS_KEY]: params }),
        [REVISION_KEY]: metadata.revision,
        [STORAGE_TYPE_KEY]: this.#options.storageType,
        [METADATA_SERVICE_VERSION_KEY]: "1.0.0",
      },
    };
  }

  async #sync(): Promise<void> {
    for (const iface of [...this.#unmapped]) {
      await this.#options.report.addMapping(iface, this.#options.app);
      this.#unmapped.delete(iface);
    }
    const metadata = metadataInfoOf(this.#options.app, this.#urls.values());
    this.#metadata = metadata;
    const first = this.#urls.values().next().value;
    const client = this.#registry.client;
    if (first === undefined || metadata.revision === EMPTY_REVISION) {
      if (this.#written === undefined) return;
      await client.remove(this.#written).catch((error: unknown) => {
        if (zkErrorCode(error) !== ZkErrorCode.NO_NODE) throw error;
      });
      this.#written = undefined;
      return;
    }
    if (this.#options.storageType === REMOTE_STORAGE) await this.#options.report.publishMetadata(metadata);
    const instance = this.#instance(first, metadata);
    const path = `${servicesRootOf(this.#registry.url)}/${this.#options.app}/${instanceId(instance)}`;
    if (this.#written !== undefined && this.#written !== path) {
      await client.remove(this.#written).catch(() => {});
      this.#written = undefined;
    }
    if (this.#written === undefined) this.#registeredAt = Date.now();
    const data = Buffer.from(instanceJson(instance, this.#registeredAt), "utf8");
    if (this.#written === path) await client.setData(path, data, -1);
    else await this.#create(path, data);
    this.#written = path;
  }

  /** Creates the ephemeral node; one left by another session (our expired one) is taken over. */
  async #create(path: string, data: Buffer): Promise<void> {
    const client = this.#registry.client;
    await client.mkdirp(path.slice(0, path.lastIndexOf("/")));
    try {
      await client.create(path, true, data);
      return;
    } catch (error) {
      if (zkErrorCode(error) !== ZkErrorCode.NODE_EXISTS) throw error;
    }
    const stat = await client.stat(path);
    if (stat?.ephemeralOwner === client.sessionId) {
      await client.setData(path, data, -1);
      return;
    }
    await client.remove(path).catch((error: unknown) => {
      if (zkErrorCode(error) !== ZkErrorCode.NO_NODE) throw error;
    });
    await client.create(path, true, data);
  }
}
