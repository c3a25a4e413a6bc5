// Tracing: OpenTelemetry spans for every call, through `@opentelemetry/api` only.

export { consumerTracingFilter, providerTracingFilter, tracingFilterExtensions } from "./tracing-filter.js";
