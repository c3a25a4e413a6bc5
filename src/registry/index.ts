// The registry layer: the Registry contract, the shared bookkeeping (cache file, failback retries),
// registries per address, and the ZooKeeper registry laid out as Java Dubbo 2.7 lays it out.
export { AbstractRegistry, type RegistryOptions } from "./abstract-registry.js";
export { FailbackRegistry } from "./failback-registry.js";
export * from "./registry.js";
export { type CacheSnapshot, RegistryCacheFile, registryCachePath } from "./registry-cache.js";
export {
  createRegistryFactories,
  Registries,
  type RegistriesOptions,
  type RegistryContext,
  type RegistryFactory,
  resolveRegistryUrl,
} from "./registry-factory.js";
export { ApplicationDiscovery } from "./service-discovery/application-discovery.js";
export { categoryOf, emptyUrl, isEmptyUrl, isMatch, isMatchCategory } from "./url-match.js";
export {
  createZookeeperRegistry,
  ZookeeperRegistry,
  zookeeperRegistryFactory,
} from "./zookeeper/zookeeper-registry.js";
