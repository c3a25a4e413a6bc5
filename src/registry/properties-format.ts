/**
 * Java's `java.util.Properties` text format (ISO-8859-1 with `\uXXXX` escapes), so the registry
 * cache file is readable by Java Dubbo and by us. Only what `Properties.store`/`load` define.
 */

/** What `Properties.store` escapes in a key (space too) and in a value (all but a leading space). */
const KEY_SPECIALS = /[\\=:#! ]|[^\x20-\x7e]/g;
const VALUE_SPECIALS = /[\\=:#!]|[^\x20-\x7e]/g;

function escapeChar(c: string): string {
  switch (c) {
    case "\\":
      return "\\\\";
    case "\t":
      return "\\t";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\f":
      return "\\f";
    case "=":
    case ":":
    case "#":
    case "!":
    case " ":
      return `\\${c}`;
  }
  return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * One `replace` over the whole text, not a string built a character at a time: a cache entry of
 * 10 000 provider URLs is a 3.5 MB line, whose character-wise concatenation cost ~1 s of CPU.
 */
function escapeText(text: string, isKey: boolean): string {
  const escaped = text.replace(isKey ? KEY_SPECIALS : VALUE_SPECIALS, escapeChar);
  return !isKey && escaped.startsWith(" ") ? `\\${escaped}` : escaped;
}

export function renderProperties(comment: string, entries: ReadonlyMap<string, string>): string {
  let out = `#${comment}\n#${new Date().toString()}\n`;
  for (const [key, value] of entries) out += `${escapeText(key, true)}=${escapeText(value, false)}\n`;
  return out;
}

/** Joins continuation lines and drops comments and blank lines. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current: string | undefined;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/^[ \t\f]+/, "");
    if (current === undefined && (line === "" || line.startsWith("#") || line.startsWith("!"))) continue;
    const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
    const joined = (current ?? "") + (trailing % 2 === 1 ? line.slice(0, -1) : line);
    if (trailing % 2 === 1) current = joined;
    else {
      lines.push(joined);
      current = undefined;
    }
  }
  if (current !== undefined) lines.push(current);
  return lines;
}

/** A backslash and what it escapes: `uXXXX`, one character, or nothing at the end of the text. */
const ESCAPE = /\\(u[0-9a-fA-F]{4}|[\s\S]?)/g;

function unescapeChar(_match: string, escaped: string): string {
  if (escaped.length === 5) return String.fromCharCode(Number.parseInt(escaped.slice(1), 16));
  return escaped === "t"
    ? "\t"
    : escaped === "n"
      ? "\n"
      : escaped === "r"
        ? "\r"
        : escaped === "f"
          ? "\f"
          : escaped;
}

function unescapeText(text: string): string {
  return text.includes("\\") ? text.replace(ESCAPE, unescapeChar) : text;
}

/**
 * Parses `Properties` text; later duplicates win, as in Java. Keys `except` has are left out
 * without decoding their values (a writer about to replace them need not read 3.5 MB of its own).
 */
export function properties(text: string, except?: { has(key: string): boolean }): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of logicalLines(text)) {
    let keyEnd = 0;
    while (keyEnd < line.length) {
      const c = line[keyEnd] as string;
      if (c === "\\") {
        keyEnd += 2;
        continue;
      }
      if (c === "=" || c === ":" || c === " " || c === "\t" || c === "\f") break;
      keyEnd += 1;
    }
    let valueStart = keyEnd;
    while (valueStart < line.length && /[ \t\f]/.test(line[valueStart] as string)) valueStart += 1;
    if (line[valueStart] === "=" || line[valueStart] === ":") valueStart += 1;
    while (valueStart < line.length && /[ \t\f]/.test(line[valueStart] as string)) valueStart += 1;
    const key = unescapeText(line.slice(0, keyEnd));
    if (except?.has(key) !== true) out.set(key, unescapeText(line.slice(valueStart)));
  }
  return out;
}
