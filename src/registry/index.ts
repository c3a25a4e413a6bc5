// The registry layer: the Registry contract, the shared bookkeeping (cache file, failback retries),
// registries per address, and the ZooKeeper registry type (its implementation, with the npm
// ZooKeeper client, is `./zookeeper/index.js`, loaded only when a zookeeper:// registry is opened).
export { AbstractRegistry, type RegistryOptions } from "./abstract-registry.js";
export { FailbackRegistry } from "./failback-registry.js";
export * from "./registry.js";
export { type CacheSnapshot, RegistryCacheFile, registryCachePath } from "./registry-cache.js";
export {
  createRegistryFactories,
  Registries,
  type RegistriesOptions,
  type RegistryContext,
  type RegistryExtension,
  type RegistryFactory,
  registryPlugin,
  resolveRegistryUrl,
} from "./registry-factory.js";
export { ApplicationDiscovery } from "./service-discovery/application-discovery.js";
export { categoryOf, emptyUrl, isEmptyUrl, isMatch, isMatchCategory } from "./url-match.js";
export { zookeeperRegistryPlugin, zookeeperRegistryType } from "./zookeeper/zookeeper-plugin.js";
