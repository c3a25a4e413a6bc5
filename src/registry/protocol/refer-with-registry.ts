import { createBuiltinRouters, type Router, type RouterFactory } from "../../cluster/index.js";
import {
  Code,
  consoleLogger,
  DEFAULT_ADDRESS_WAIT_MS,
  DEFAULT_REGISTER,
  DEFAULT_SUBSCRIBE,
  type ExtensionPoint,
  type Invoker,
  RpcError,
  type Url,
} from "../../core/index.js";
import { type ProtocolSource, RegistryDirectory } from "../directory/registry-directory.js";
import type { Registry, RegistryLogger } from "../registry.js";
import { ANY_VALUE } from "../registry.js";
import type { Registries } from "../registry-factory.js";
import type { ApplicationDiscovery } from "../service-discovery/application-discovery.js";
import { referByMigration } from "../service-discovery/migration-refer.js";
import {
  type ClusterBuilder,
  DirectoryClusterInvoker,
  joinRegistries,
  withAddressWait,
} from "./reference-invokers.js";
import { consumerRegistrationUrl } from "./registry-urls.js";

export interface RegistryReferOptions {
  /** One URL per registry; registries with `subscribe=false` are skipped (Java does the same). */
  readonly registryUrls: readonly Url[];
  /** Refers to each provider: one protocol, or a lookup by the provider URL's protocol. */
  readonly protocol: ProtocolSource;
  readonly registries: Registries;
  /** Joins one directory into one invoker: `(d) => createClusterInvoker(d, clusterContext, clusters)`. */
  readonly cluster: ClusterBuilder;
  /** Router factories for rules from the `routers` category; without them rules are ignored (logged). */
  readonly routerFactories?: ExtensionPoint<RouterFactory>;
  /**
   * The routers every chain has. Default: `createBuiltinRouters` (mock and tag) when
   * `routerFactories` has both, else none.
   */
  readonly builtinRouters?: (consumerUrl: Url) => readonly Router[];
  /**
   * The application's application-level discovery (Dubbo 3): with it, ZooKeeper registries are
   * followed as the migration step says (`APPLICATION_FIRST` by default). Without it, per interface only.
   */
  readonly discovery?: ApplicationDiscovery;
  readonly logger?: RegistryLogger;
}

/** The invoker of a reference discovered through registries. */
export interface RegistryReference extends Invoker {
  readonly consumerUrl: Url;
  /**
   * The directories subscribed now, in the order of `registryUrls`: one per registry, two for a
   * ZooKeeper registry in `APPLICATION_FIRST`; a migration changes them while the reference runs.
   */
  readonly directories: readonly RegistryDirectory[];
  /** Whether any registry has delivered a usable provider now. */
  hasProviders(): boolean;
  /** Resolves true once a provider is known, false after `timeoutMs`. */
  waitForProviders(timeoutMs: number): Promise<boolean>;
}

function defaultBuiltinRouters(
  routerFactories: ExtensionPoint<RouterFactory> | undefined,
  consumerUrl: Url,
): readonly Router[] {
  if (routerFactories === undefined || !routerFactories.has("mock") || !routerFactories.has("tag")) return [];
  return createBuiltinRouters(routerFactories, consumerUrl);
}

/**
 * Java's `RegistryProtocol.refer`, for one reference over one or more registries. Per registry:
 * register the consumer (`consumer://…?category=consumers&check=false`, unless `register=false`),
 * subscribe a {@link RegistryDirectory} to providers, configurators and routers (the first lists
 * are referred before this resolves), and build its cluster invoker. Several registries are joined
 * registry-aware (`preferred=true` on a registry URL puts it first). `address.wait` on the consumer
 * URL (ms, default 0) lets the first calls wait for providers that are not known yet.
 *
 * `consumerUrl` is the config layer's `toReferenceUrl` (protocol `consumer`, the local host).
 * With `check=true` on the registry and the reference, an unreachable registry rejects (unless its
 * cache file has providers for the service). `destroy()` unregisters the consumer, unsubscribes,
 * and closes every provider invoker.
 */
export async function referWithRegistry(
  consumerUrl: Url,
  options: RegistryReferOptions,
): Promise<RegistryReference> {
  if (consumerUrl.serviceInterface === "" || consumerUrl.serviceInterface === ANY_VALUE) {
    throw new RpcError(
      `referWithRegistry needs a consumer URL naming one interface (got ${consumerUrl.toString()})`,
      Code.InvalidArgument,
    );
  }
  const logger = options.logger ?? consoleLogger;
  const registryUrls = options.registryUrls.filter((u) => u.boolean("subscribe", DEFAULT_SUBSCRIBE));
  if (registryUrls.length === 0) {
    throw new RpcError(
      `the reference to ${consumerUrl.serviceKey} has no registry to subscribe to (give a registry address, or url= for a direct connection)`,
      Code.InvalidArgument,
    );
  }
  const registered: Array<{ registry: Registry; url: Url }> = [];
  const clusters: DirectoryClusterInvoker[] = [];
  const perRegistry: Invoker[] = [];
  const registrationUrl = consumerRegistrationUrl(consumerUrl);
  const subscribe = async (registry: Registry): Promise<DirectoryClusterInvoker> => {
    const directory = new RegistryDirectory({
      consumerUrl,
      registry,
      protocol: options.protocol,
      ...(options.routerFactories === undefined ? {} : { routerFactories: options.routerFactories }),
      builtinRouters:
        options.builtinRouters?.(consumerUrl) ?? defaultBuiltinRouters(options.routerFactories, consumerUrl),
      logger,
    });
    const cluster = new DirectoryClusterInvoker(directory, options.cluster);
    clusters.push(cluster);
    await directory.subscribe();
    return cluster;
  };
  const closing = new AbortController();
  /** A cluster a running migration no longer calls. */
  const releaseCluster = async (cluster: DirectoryClusterInvoker): Promise<void> => {
    const index = clusters.indexOf(cluster);
    if (index < 0) return;
    clusters.splice(index, 1);
    await release([cluster], [], logger);
  };
  const referClusters = { subscribe, release: releaseCluster, closed: closing.signal };
  let preferred = -1;
  try {
    for (const registryUrl of registryUrls) {
      const registry = await options.registries.get(registryUrl);
      if (registryUrl.boolean("preferred", false) && preferred < 0) preferred = perRegistry.length;
      if (
        registryUrl.boolean("register", DEFAULT_REGISTER) &&
        consumerUrl.boolean("register", DEFAULT_REGISTER)
      ) {
        await registry.register(registrationUrl);
        registered.push({ registry, url: registrationUrl });
      }
      perRegistry.push(
        await referByMigration(registry, consumerUrl, options.discovery, options.protocol, referClusters),
      );
    }
  } catch (error) {
    closing.abort();
    await release(clusters, registered, logger);
    throw error;
  }

  // A migration adds and removes clusters while the reference runs.
  const directories = (): RegistryDirectory[] => clusters.map((c) => c.directory);
  const joined =
    perRegistry.length === 1 ? (perRegistry[0] as Invoker) : joinRegistries(perRegistry, preferred);
  const invoker = withAddressWait(
    joined,
    directories(),
    consumerUrl.number("address.wait", DEFAULT_ADDRESS_WAIT_MS),
  );
  let destroyed: Promise<void> | undefined;
  return {
    consumerUrl,
    get directories() {
      return directories();
    },
    get url() {
      return invoker.url;
    },
    get definition() {
      return invoker.definition;
    },
    invoke: (inv) => invoker.invoke(inv),
    isAvailable: () => invoker.isAvailable(),
    hasProviders: () => directories().some((d) => d.all().length > 0),
    waitForProviders: (timeoutMs) => anyTrue(directories().map((d) => d.waitForProviders(timeoutMs))),
    destroy() {
      closing.abort();
      destroyed ??= release(clusters, registered, logger);
      return destroyed;
    },
  };
}

/** True as soon as one promise resolves true; false when all resolved false. */
function anyTrue(waits: ReadonlyArray<Promise<boolean>>): Promise<boolean> {
  return new Promise((resolve) => {
    let pending = waits.length;
    if (pending === 0) resolve(false);
    for (const wait of waits) {
      void wait.then((ok) => {
        pending -= 1;
        if (ok) resolve(true);
        else if (pending === 0) resolve(false);
      });
    }
  });
}

async function release(
  clusters: readonly DirectoryClusterInvoker[],
  registered: ReadonlyArray<{ registry: Registry; url: Url }>,
  logger: RegistryLogger,
): Promise<void> {
  await Promise.all(
    registered.map(({ registry, url }) =>
      registry.unregister(url).catch((error: unknown) => {
        logger.warn(`could not unregister consumer ${url.serviceKey} from ${registry.url.address}`, error);
      }),
    ),
  );
  await Promise.all(
    clusters.map((c) =>
      c.destroy().catch((error: unknown) => {
        logger.warn(`could not close the reference to ${c.directory.url.serviceKey}`, error);
      }),
    ),
  );
}
