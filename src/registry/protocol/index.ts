// The registry protocol: export = serve + register + follow override rules; refer = register the
// consumer + subscribe a registry directory per registry + cluster join.
export {
  exportWithRegistry,
  type RegistryExporter,
  type RegistryExportOptions,
} from "./export-with-registry.js";
export { ProviderRegistration } from "./provider-registration.js";
export {
  type RegistryReference,
  type RegistryReferOptions,
  referWithRegistry,
} from "./refer-with-registry.js";
export {
  type ClusterBuilder,
  DirectoryClusterInvoker,
  joinRegistries,
  withAddressWait,
} from "./reference-invokers.js";
export {
  consumerRegistrationUrl,
  overrideSubscribeUrl,
  PROVIDER_PROTOCOL,
  urlToRegistry,
} from "./registry-urls.js";
