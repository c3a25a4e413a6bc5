/** A label set of one sample, by Prometheus label name. */
export type Labels = Readonly<Record<string, string>>;

/** A label value as the exposition format escapes it. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

/** `{a="1",b="2"}`, the labels in the order given. */
export function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return `{${parts.join(",")}}`;
}

/** One gauge family in the text format (0.0.4); nothing when it has no samples. */
export function gaugeFamily(
  name: string,
  help: string,
  samples: ReadonlyArray<readonly [labels: Labels, value: number]>,
): string[] {
  if (samples.length === 0) return [];
  return [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} gauge`,
    ...samples.map(([labels, value]) => `${name}${labelText(labels)} ${value}`),
  ];
}
