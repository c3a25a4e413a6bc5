// Configuration: Dubbo's config objects (Application, Registry, Protocol, Provider, Consumer,
// Service, Reference, Method) as typed options, `resolveX` functions that validate them and apply
// defaults, conversion to the URLs the rest of the framework runs on, and loading from a
// `dubbo.yaml` file plus `DUBBO_*` environment variables.
export {
  type ApplicationConfig,
  type ApplicationEnvironment,
  type ResolvedApplicationConfig,
  resolveApplication,
} from "./application-config.js";
export { loadConfigFile } from "./config-file.js";
export { type ConsumerConfig, type ResolvedConsumerConfig, resolveConsumer } from "./consumer-config.js";
export { type DubboConfig, type DubboConfigOptions, resolveDubboConfig } from "./dubbo-config.js";
export { type EntryChoice, resolveReferenceEntry, resolveServiceEntry } from "./entry-config.js";
export { type Environment, envForm } from "./env-overrides.js";
export {
  BUILTIN_EXTENSION_NAMES,
  type CustomExtensions,
  type ExtensionName,
  type ExtensionPointName,
  type FilterListEntry,
} from "./extension-name-types.js";
export {
  collectExtensionNames,
  type ExtensionNameUse,
  protocolExtensionNames,
  referenceExtensionNames,
  registryExtensionNames,
  serviceExtensionNames,
} from "./extension-names.js";
export type { Given } from "./fields.js";
export {
  type ConfigLayers,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  loadConfigLayers,
} from "./load-config.js";
export type { MethodConfig, MethodSettings, MethodsConfig, ResolvedMethodConfig } from "./method-config.js";
export { type ProtocolConfig, type ResolvedProtocolConfig, resolveProtocol } from "./protocol-config.js";
export { type ProviderConfig, type ResolvedProviderConfig, resolveProvider } from "./provider-config.js";
export {
  type GenericMode,
  type ReferenceConfig,
  type ReferenceScope,
  type ResolvedReferenceConfig,
  type ResolveReferenceContext,
  resolveReference,
} from "./reference-config.js";
export { type RegistryConfig, type ResolvedRegistryConfig, resolveRegistry } from "./registry-config.js";
export { findLocalHost, type UrlRuntime } from "./runtime.js";
export {
  type ResolvedServiceConfig,
  type ResolveServiceContext,
  resolveService,
  type ServiceConfig,
  type ServiceScope,
} from "./service-config.js";
export type { ProtocolSslConfig, ReferenceSslConfig } from "./ssl-config.js";
export { toReferenceUrl, toRegistryUrls, toServiceUrl } from "./urls.js";
