// Java 3's request metrics over the monitor stream, and their Prometheus text exposition.
export { CallMetrics, type MethodMetrics } from "./call-metrics.js";
export { MethodStats } from "./method-stats.js";
export { prometheusText } from "./prometheus-text.js";
