// The embedded default registry (`dubbo://host:port`): the registry service exported over our
// dubbo protocol (long-poll watches and leases instead of callbacks), its client, and the CLI.
export { createDubboRegistry, DubboRegistry } from "./dubbo-registry.js";
export { embeddedRegistryPlugin, embeddedRegistryType } from "./embedded-registry-plugin.js";
export {
  type EmbeddedRegistryOptions,
  type EmbeddedRegistryServer,
  startEmbeddedRegistry,
} from "./embedded-registry-server.js";
export { EMBEDDED_REGISTRY_SERVICE, RegistryServiceContract, type WatchResult } from "./registry-contract.js";
export { RegistryStore, type RegistryStoreOptions } from "./registry-store.js";
