// Tracing: OpenTelemetry spans for every call, through `@opentelemetry/api` only.

export {
  contextFromAttachments,
  PROPAGATION_TYPE_KEY,
  type PropagationType,
  traceAttachments,
} from "./trace-propagation.js";
export {
  CONSUMER_TRACING_FILTER,
  consumerTracingFilter,
  PROVIDER_TRACING_FILTER,
  providerTracingFilter,
  tracingFilterExtensions,
} from "./tracing-filter.js";
