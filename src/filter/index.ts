// Filter chains and the base filters: context (attachments both ways), echo, generic, exception;
// the protocol wrapper that puts provider chains on export and consumer chains on refer, and the
// chain of filters that run once per logical call around a reference's cluster.

export { BASE_FILTERS, createFilterExtensionPoint, registerBaseFilters } from "./base-filters.js";
export { invokeListening, invokeSafely, listenerFilter, type SettledListener } from "./call-listener.js";
export { withClusterFilters } from "./cluster-filters.js";
export { consumerContextFilter, providerContextFilter } from "./context-filters.js";
export { echoFilter } from "./echo-filter.js";
export { exceptionFilter, toProviderError } from "./exception-filter.js";
export { buildFilterChain } from "./filter-chain.js";
export { filterPlugin } from "./filter-plugin.js";
export {
  GENERIC_EXCEPTION_CLASS,
  GENERIC_INVOKE,
  GENERIC_INVOKE_ASYNC,
  GENERIC_KEY,
  genericFilter,
} from "./generic/generic-filter.js";
export { generalize } from "./generic/pojo-generalize.js";
export { realize } from "./generic/pojo-realize.js";
export { CLASS_KEY, PojoConversionError } from "./generic/pojo-shape.js";
export { wrapProtocolWithFilters } from "./protocol-filter-wrapper.js";
