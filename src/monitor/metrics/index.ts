// Java 3's request metrics over the monitor stream, and their Prometheus text exposition.
export { CallMetrics } from "./call-metrics.js";
export { prometheusText } from "./prometheus-text.js";
