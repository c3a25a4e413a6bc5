// The registry directory: notifications from a registry turned into the invokers of one
// reference, with override rules (configurators) and rule routers applied.
export {
  ABSENT_PROTOCOL,
  ANY_HOST,
  applyConfigurators,
  type Configurator,
  isDisabled,
  OVERRIDE_PROTOCOL,
  toConfigurators,
} from "./configurator.js";
export { mergeProviderUrl, REMOTE_APPLICATION_KEY, withProviderDefaults } from "./merge-url.js";
export {
  type ProtocolSource,
  REFERENCE_CATEGORIES,
  RegistryDirectory,
  type RegistryDirectoryOptions,
} from "./registry-directory.js";
