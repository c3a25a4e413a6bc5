// Java 3's request, registry and thread-pool metrics over the monitor stream, and their Prometheus
// text exposition.
export { CallMetrics } from "./call-metrics.js";
export { type DirectoryCounts, directoryMetrics } from "./directory-metrics.js";
export { type MetricsLines, prometheusText } from "./prometheus-text.js";
export { RegistryMetrics } from "./registry-metrics.js";
export { ThreadPoolMetrics } from "./thread-pool-metrics.js";
