// Tracing: OpenTelemetry spans for every call, through `@opentelemetry/api` only.

export {
  consumerPeerFilter,
  consumerTracingFilter,
  providerTracingFilter,
  tracingFilterExtensions,
} from "./tracing-filter.js";
