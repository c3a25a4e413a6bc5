/**
 * A bordered table as Java's QoS `TTable` draws it: `+---+` rules between rows, cells centred
 * (the odd space on the left), one space of padding, lines ending `\r\n`.
 */
export function textTable(rows: ReadonlyArray<readonly string[]>): string {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, c) =>
    Math.max(0, ...rows.map((r) => (r[c] ?? "").length)),
  );
  const rule = `+${widths.map((w) => "-".repeat(w + 2)).join("+")}+`;
  const centred = (text: string, width: number): string => {
    const right = Math.floor((width - text.length) / 2);
    return " ".repeat(width - text.length - right) + text + " ".repeat(right);
  };
  const lines = [rule];
  for (const row of rows) {
    lines.push(`|${widths.map((w, c) => ` ${centred(row[c] ?? "", w)} `).join("|")}|`, rule);
  }
  return `${lines.join("\r\n")}\r\n`;
}
