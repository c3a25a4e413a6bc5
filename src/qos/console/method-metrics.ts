/** One method's live figures on one side, read from Java 3's Prometheus metrics. */
export interface MethodMetricsRow {
  readonly application: string;
  readonly side: "consumer" | "provider";
  readonly service: string;
  readonly method: string;
  readonly requests: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly qps: number;
  readonly rtAvgMs: number;
  readonly rtP99Ms: number;
}

/** The families the console shows, by the row field they fill. */
const SHOWN = {
  requests_total: "requests",
  requests_succeed_total: "succeeded",
  requests_failed_total: "failed",
  qps_total: "qps",
  rt_milliseconds_avg: "rtAvgMs",
  rt_milliseconds_p99: "rtP99Ms",
} as const;
type Figure = (typeof SHOWN)[keyof typeof SHOWN];

const SAMPLE = /^dubbo_(consumer|provider)_([a-z0-9_]+)\{([^}]*)\} (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/**
 * The per-method rows of Prometheus texts in Java 3's names (`dubbo_{side}_requests_total{…}`
 * with labels `application_name`, `interface`, `method`, …), as the QoS port's `/metrics` serves
 * them; other lines are skipped.
 */
export function methodMetricsRows(texts: readonly string[]): MethodMetricsRow[] {
  const rows = new Map<string, Record<string, string | number>>();
  for (const line of texts.flatMap((t) => t.split("\n"))) {
    const match = SAMPLE.exec(line);
    if (match === null) continue;
    const [, side, family, labelText, value] = match;
    const field: Figure | undefined = SHOWN[family as keyof typeof SHOWN];
    if (field === undefined) continue;
    const labels = Object.fromEntries([...labelText!.matchAll(LABEL)].map((m) => [m[1], m[2]]));
    const id = [
      labels.application_name,
      side,
      labels.interface,
      labels.group,
      labels.version,
      labels.method,
    ].join("\u0000");
    let row = rows.get(id);
    if (row === undefined) {
      row = {
        application: labels.application_name ?? "",
        side: side!,
        service: labels.interface ?? "",
        method: labels.method ?? "",
      };
      rows.set(id, row);
    }
    row[field] = Number(value);
  }
  return [...rows.values()].map((r) => ({
    requests: 0,
    succeeded: 0,
    failed: 0,
    qps: 0,
    rtAvgMs: 0,
    rtP99Ms: 0,
    ...r,
  })) as MethodMetricsRow[];
}
