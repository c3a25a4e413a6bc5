import type { Protocol, Url } from "../../core/index.js";
import { consoleLogger } from "../../core/index.js";
import { ConfigCenterRules } from "../config-center/config-center-rules.js";
import type { ProtocolSource } from "../directory/registry-directory.js";
import type { MetadataInfo } from "../metadata/metadata-info.js";
import type { ZkMetadataReport } from "../metadata/zk-metadata-report.js";
import type { Registry, RegistryLogger } from "../registry.js";
import { IS_ZOOKEEPER_REGISTRY } from "../zookeeper/zookeeper-brand.js";
import type { ZookeeperRegistry } from "../zookeeper/zookeeper-registry.js";
import { MetadataServiceExport } from "./metadata-service-export.js";
import { MIGRATION_RULE_GROUP, type Migration, migrationOf, ruleFor } from "./migration.js";
import type { ServiceDiscoveryRegistry } from "./service-discovery-registry.js";
import { LOCAL_STORAGE } from "./service-instance.js";
import type { ZkInstanceRegistration } from "./zk-instance-registration.js";

/** Application-level discovery runs on ZooKeeper registries only. */
function isZookeeper(registry: Registry): registry is ZookeeperRegistry {
  return IS_ZOOKEEPER_REGISTRY in registry;
}

/** The ZooKeeper parts, loaded with the first ZooKeeper registry (an application has one by then). */
const zookeeperParts = () => import("./zookeeper-discovery.js");

/** Java's URL key for where the instance's metadata lives: `local` (default) or `remote`. */
const METADATA_TYPE_KEY = "metadata-type";

/**
 * One application's membership of Dubbo 3 application-level discovery: its instance in each
 * ZooKeeper registry, and the metadata service those instances point consumers to. Registries
 * without application-level discovery (the embedded `dubbo://` one) stay interface-level only.
 */
export class ApplicationDiscovery {
  readonly #logger: RegistryLogger;
  readonly #instances = new Map<ZookeeperRegistry, ZkInstanceRegistration>();
  readonly #reports = new Map<ZookeeperRegistry, ZkMetadataReport>();
  readonly #subscribers = new Map<ZookeeperRegistry, ServiceDiscoveryRegistry>();
  #metadataService: MetadataServiceExport | undefined;
  /** Numbers followed migration rules, naming their pending reads apart. */
  #followed = 0;

  constructor(logger: RegistryLogger = consoleLogger) {
    this.#logger = logger;
  }

  /** The metadata report on this ZooKeeper registry (mapping, remote metadata). */
  async #reportOf(registry: ZookeeperRegistry): Promise<ZkMetadataReport> {
    let report = this.#reports.get(registry);
    if (report === undefined) {
      const { ZkMetadataReport } = await zookeeperParts();
      report = this.#reports.get(registry) ?? new ZkMetadataReport(registry);
      this.#reports.set(registry, report);
    }
    return report;
  }

  /**
   * Adds a registered provider URL (served over `protocol` at `served`, which keeps the bound
   * address the registered one may not show) to this application's instance in `registry`;
   * resolves to the way to remove it again, or undefined when the registry has no
   * application-level discovery.
   */
  async registerService(
    registry: Registry,
    registered: Url,
    protocol: Protocol,
    served: Url,
  ): Promise<(() => Promise<void>) | undefined> {
    if (!isZookeeper(registry)) return undefined;
    const report = await this.#reportOf(registry);
    const { ZkInstanceRegistration } = await zookeeperParts();
    const app = registered.string("application", "");
    const storageType = registered.string(METADATA_TYPE_KEY, LOCAL_STORAGE);
    const metadataService = this.#metadataServiceOf(app);
    if (storageType === LOCAL_STORAGE) {
      // Registered settings (prefer.serialization, …) with the address actually bound.
      const bound: Record<string, string> = {};
      for (const key of ["bind.ip", "bind.port"]) {
        const value = served.get(key);
        if (value !== undefined) bound[key] = value;
      }
      await metadataService.ensure(protocol, registered.withParams(bound));
    }
    let instance = this.#instances.get(registry);
    if (instance === undefined) {
      instance = new ZkInstanceRegistration(registry, {
        app,
        storageType,
        report,
        metadataServiceParams: () => metadataService.urlParams(),
        logger: this.#logger,
      });
      this.#instances.set(registry, instance);
    }
    const added = instance;
    await added.add(registered);
    return () => added.remove(registered);
  }

  /**
   * The application-level face of `registry` for references (subscribe only), or undefined when
   * the registry has no application-level discovery. Metadata services are called over `protocol`.
   */
  async subscriberOf(
    registry: Registry,
    protocol: ProtocolSource,
  ): Promise<ServiceDiscoveryRegistry | undefined> {
    if (!isZookeeper(registry)) return undefined;
    const report = await this.#reportOf(registry);
    const { MetadataFetcher, ServiceDiscoveryRegistry } = await zookeeperParts();
    let subscriber = this.#subscribers.get(registry);
    if (subscriber === undefined) {
      const fetcher = new MetadataFetcher(report, protocol);
      subscriber = new ServiceDiscoveryRegistry(registry, { report, fetcher, logger: this.#logger });
      this.#subscribers.set(registry, subscriber);
    }
    return subscriber;
  }

  /**
   * The reference's migration now: the rule at
   * `/dubbo/config/DUBBO_SERVICEDISCOVERY_MIGRATION/{application}.migration`, else the consumer
   * URL's `migration.step` / `migration.threshold` / `migration.force`, else `APPLICATION_FIRST`
   * with threshold 0. While ZooKeeper is not connected (registry check=false) the reference starts
   * interface-level, the one level with a cache file to serve from; {@link followMigration} moves it
   * once ZooKeeper is back.
   */
  async migrationOf(registry: Registry, consumerUrl: Url): Promise<Migration> {
    if (!isZookeeper(registry)) return migrationOf(consumerUrl);
    if (!registry.isAvailable()) return { ...migrationOf(consumerUrl), step: "FORCE_INTERFACE" };
    return this.#readMigration(registry, consumerUrl);
  }

  /**
   * Follows the reference's migration rule, as Java's `MigrationRuleListener` does: reads it again
   * with a watch on the node, and on each change of the node (and each new session, and once the
   * registry is reachable again after a failed read) hands the migration it gives to `migrate`,
   * until `closed` aborts. A rule that does not parse is logged and changes nothing.
   */
  followMigration(
    registry: Registry,
    consumerUrl: Url,
    closed: AbortSignal,
    migrate: (next: Migration) => Promise<boolean>,
  ): void {
    if (!isZookeeper(registry) || closed.aborted) return;
    const name = `the migration rule of reference ${++this.#followed} (${consumerUrl.serviceKey})`;
    const apply = async (): Promise<void> => {
      if (closed.aborted) return;
      const next = await this.#readMigration(registry, consumerUrl, reread);
      if (closed.aborted) return;
      if (!(await migrate(next))) {
        this.#logger.warn(
          `${consumerUrl.serviceKey} stays at its migration step: the ${next.step} rule's level has no providers or fails threshold ${next.threshold} (set force: true to switch anyway)`,
        );
      }
    };
    const reread = (): void => {
      registry.runOrRetry(name, apply).catch((error: unknown) => {
        this.#logger.error(
          `${name} was not applied (the step before it stays): ${String((error as Error).message ?? error)}`,
        );
      });
    };
    const stopFollowing = registry.onNewSession(reread);
    closed.addEventListener("abort", stopFollowing, { once: true });
    reread();
  }

  async #readMigration(
    registry: ZookeeperRegistry,
    consumerUrl: Url,
    watcher?: () => void,
  ): Promise<Migration> {
    const app = consumerUrl.string("application", "");
    const report = await this.#reportOf(registry);
    const rule = await report.readConfig(MIGRATION_RULE_GROUP, `${app}.migration`, watcher);
    if (rule === undefined || rule.trim() === "") return migrationOf(consumerUrl);
    const providerApps = await report.readMapping(consumerUrl.serviceInterface);
    return migrationOf(consumerUrl, ruleFor(rule, consumerUrl, providerApps));
  }

  /**
   * `target` (one of `registry`'s faces) with the override rules of the config center of `registry`
   * added to its subscriptions, when `registry` is a ZooKeeper one.
   */
  withConfigCenterRules(target: Registry, registry: Registry): Registry {
    if (!isZookeeper(registry)) return target;
    return new ConfigCenterRules(target, registry, this.#logger);
  }

  #metadataServiceOf(app: string): MetadataServiceExport {
    this.#metadataService ??= new MetadataServiceExport(app, () => this.#allMetadata());
    return this.#metadataService;
  }

  #allMetadata(): MetadataInfo[] {
    return [...this.#instances.values()].map((i) => i.metadata);
  }

  /** Removes every instance node, stops subscriptions and unexports the metadata service. */
  async destroy(): Promise<void> {
    const subscribers = [...this.#subscribers.values()];
    this.#subscribers.clear();
    await Promise.all(subscribers.map((s) => s.destroy()));
    const instances = [...this.#instances.values()];
    this.#instances.clear();
    await Promise.all(
      instances.map((i) =>
        i.destroy().catch((error: unknown) => this.#logger.warn("could not remove an instance node", error)),
      ),
    );
    await this.#metadataService?.unexport();
    this.#metadataService = undefined;
  }
}
