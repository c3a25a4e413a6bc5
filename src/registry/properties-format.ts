/**
 * Java's `java.util.Properties` text format (ISO-8859-1 with `\uXXXX` escapes), so the registry
 * cache file is readable by Java Dubbo and by us. Only what `Properties.store`/`load` define.
 */

function escapeText(text: string, isKey: boolean): string {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    const code = text.charCodeAt(i);
    switch (c) {
      case "\\":
        out += "\\\\";
        continue;
      case "\t":
        out += "\\t";
        continue;
      case "\n":
        out += "\\n";
        continue;
      case "\r":
        out += "\\r";
        continue;
      case "\f":
        out += "\\f";
        continue;
      case "=":
      case ":":
      case "#":
      case "!":
        out += `\\${c}`;
        continue;
      case " ":
        out += i === 0 || isKey ? "\\ " : " ";
        continue;
    }
    out += code < 0x20 || code > 0x7e ? `\\u${code.toString(16).toUpperCase().padStart(4, "0")}` : c;
  }
  return out;
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

function unescapeText(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c !== "\\") {
      out += c;
      continue;
    }
    i += 1;
    const next = text[i];
    if (next === undefined) break;
    if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
      out += String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 5), 16));
      i += 4;
    } else {
      out += next === "t" ? "\t" : next === "n" ? "\n" : next === "r" ? "\r" : next === "f" ? "\f" : next;
    }
  }
  return out;
}

/** Parses `Properties` text; later duplicates win, as in Java. */
export function properties(text: string): Map<string, string> {
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
    out.set(unescapeText(line.slice(0, keyEnd)), unescapeText(line.slice(valueStart)));
  }
  return out;
}
