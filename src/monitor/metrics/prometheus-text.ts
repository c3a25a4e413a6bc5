import type { CallSide } from "../events.js";
import type { CallMetrics, MethodMetrics } from "./call-metrics.js";
import { labelText } from "./gauge-family.js";
import type { MethodStats } from "./method-stats.js";

/**
 * One gauge family per Java 3 `MetricsKey` (names with `.` as `_`, as Micrometer's Prometheus
 * registry writes them, all gauges as Java samples them), with Java's help texts.
 */
const FAMILIES: ReadonlyArray<
  readonly [suffix: string, help: string, read: (s: MethodStats, now: number) => number]
> = [
  ["requests_total", "Total Requests", (s) => s.total],
  ["requests_succeed_total", "Total Succeed Requests", (s) => s.succeed],
  ["requests_business_failed_total", "Total Failed Business Requests", (s) => s.business],
  ["requests_processing_total", "Processing Requests", (s) => s.processing],
  ["requests_timeout_total", "Total Timeout Failed Requests", (s) => s.timeout],
  ["requests_limit_total", "Total Limit Failed Requests", (s) => s.limit],
  ["requests_unknown_failed_total", "Total Unknown Failed Requests", (s) => s.unknown],
  ["requests_failed_network_total", "Total network Failed Requests", (s) => s.network],
  ["requests_failed_codec_total", "Total Codec Failed Requests", (s) => s.codec],
  ["requests_failed_total", "Total Failed Requests", (s) => s.failed],
  ["qps_total", "Query Per Seconds", (s, now) => s.qps(now)],
  ["rt_milliseconds_last", "Last Response Time", (s) => s.rtLast],
  ["rt_milliseconds_min", "Min Response Time", (s) => (s.rtCount === 0 ? 0 : s.rtMin)],
  ["rt_milliseconds_max", "Max Response Time", (s) => s.rtMax],
  ["rt_milliseconds_sum", "Sum Response Time", (s) => s.rtSum],
  ["rt_milliseconds_avg", "Average Response Time", (s) => (s.rtCount === 0 ? 0 : s.rtSum / s.rtCount)],
  ["rt_milliseconds_p99", "Response Time P99", (s) => s.quantile(0.99)],
  ["rt_milliseconds_p95", "Response Time P95", (s) => s.quantile(0.95)],
  ["rt_milliseconds_p90", "Response Time P90", (s) => s.quantile(0.9)],
  ["rt_milliseconds_p50", "Response Time P50", (s) => s.quantile(0.5)],
];

function labelsOf(m: MethodMetrics): string {
  const { application, service, group, version } = m.site;
  return labelText({ application_name: application, group, interface: service, method: m.method, version });
}

/** A collector whose gauge families follow the request metrics (registry, thread pools). */
export interface MetricsLines {
  lines(): string[];
}

/**
 * The Prometheus text exposition (format 0.0.4) of the request metrics: per side, every family
 * with one sample per method, labelled as Java 3 labels them; then the other collectors' families.
 */
export function prometheusText(metrics: CallMetrics, others: readonly MetricsLines[] = []): string {
  const now = metrics.now();
  const methods = metrics.methods();
  const lines: string[] = [];
  for (const side of ["consumer", "provider"] as const satisfies readonly CallSide[]) {
    const ofSide = methods.filter((m) => m.site.side === side);
    if (ofSide.length === 0) continue;
    const labels = ofSide.map(labelsOf);
    for (const [suffix, help, read] of FAMILIES) {
      const name = `dubbo_${side}_${suffix}`;
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
      for (const [i, m] of ofSide.entries()) lines.push(`${name}${labels[i]} ${read(m.stats, now)}`);
    }
  }
  for (const other of others) lines.push(...other.lines());
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
