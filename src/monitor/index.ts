// The monitor layer: one event stream per application, the filters that emit the calls' events,
// and what reads them (the Prometheus metrics); the OpenTelemetry tracing filters.
export { createCallEventFilter } from "./call-filter.js";
export { MonitorEvents, type MonitorListener } from "./event-stream.js";
export type * from "./events.js";
export {
  CallMetrics,
  type DirectoryCounts,
  directoryMetrics,
  type MetricsLines,
  prometheusText,
  RegistryMetrics,
  ThreadPoolMetrics,
} from "./metrics/index.js";
export { monitorPlugin } from "./monitor-plugin.js";
export { monitorObserver } from "./protocol-observer.js";
export * from "./tracing/index.js";
