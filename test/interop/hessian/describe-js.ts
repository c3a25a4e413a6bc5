// A canonical description of a decoded JS value that, unlike deepStrictEqual, sees the
// non-enumerable `$class` of Java objects, tells number from bigint and -0 from 0, treats Buffer and
// Uint8Array alike, shows BizError's Java fields, and prints shared or cyclic objects as #n=/#n.
import { createHash } from "node:crypto";
import { BizError } from "../../../src/core/error/biz-error.js";

/** Throwable's own fields: the codec maps them to BizError's message/cause/javaStack, not `fields`. */
const THROWABLE_FIELDS = new Set([
  "detailMessage",
  "cause",
  "stackTrace",
  "suppressedExceptions",
  "depth",
  "backtrace",
]);

function quote(s: string): string {
  if (s.length > 80) {
    const hash = createHash("sha256").update(s, "utf16le").digest("hex").slice(0, 16);
    return `len=${s.length},sha256=${hash}`;
  }
  return JSON.stringify(s);
}

function isComposite(v: unknown): v is object {
  return (
    typeof v === "object" &&
    v !== null &&
    !(v instanceof Date) &&
    !(v instanceof Uint8Array) &&
    !(v instanceof String)
  );
}

class Describer {
  private readonly seen = new Map<object, number>();
  private readonly labels = new Map<object, number>();

  count(v: unknown): void {
    if (!isComposite(v)) return;
    const n = this.seen.get(v);
    this.seen.set(v, (n ?? 0) + 1);
    if (n !== undefined) return;
    for (const child of this.children(v)) this.count(child);
  }

  private children(v: object): unknown[] {
    if (Array.isArray(v)) return v;
    if (v instanceof Set) return [...v];
    if (v instanceof Map) return [...v].flat();
    if (v instanceof BizError) return [v.cause, ...Object.values(v.fields)];
    if (v instanceof Error) return [v.cause];
    return Object.values(v);
  }

  print(v: unknown): string {
    if (v === null) return "null";
    if (v === undefined) return "undefined";
    switch (typeof v) {
      case "number":
        return Object.is(v, -0) ? "n:-0" : `n:${v}`;
      case "bigint":
        return `big:${v}`;
      case "string":
        return `s:${quote(v)}`;
      case "boolean":
        return `b:${v}`;
      case "object":
        break;
      default:
        return `${typeof v}:${String(v)}`;
    }
    if (v instanceof Date) return `date:${v.getTime()}`;
    if (v instanceof Uint8Array) {
      const hex = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
      return `bytes:${v.length <= 64 ? hex : quote(hex)}`;
    }
    const label = this.labels.get(v);
    if (label !== undefined) return `#${label}`;
    let prefix = "";
    if ((this.seen.get(v) ?? 0) > 1) {
      const next = this.labels.size + 1;
      this.labels.set(v, next);
      prefix = `#${next}=`;
    }
    return prefix + this.printComposite(v);
  }

  private printComposite(v: object): string {
    if (Array.isArray(v)) return `[${v.map((e) => this.print(e)).join(",")}]`;
    if (v instanceof Set) {
      return `Set[${[...v]
        .map((e) => this.print(e))
        .sort()
        .join(",")}]`;
    }
    if (v instanceof Map) {
      const entries = [...v].sort(([a], [b]) => (plain(a) < plain(b) ? -1 : plain(a) > plain(b) ? 1 : 0));
      return `Map{${entries.map(([k, val]) => `${this.print(k)}=>${this.print(val)}`).join(",")}}`;
    }
    if (v instanceof BizError) {
      const extra = Object.entries(v.fields)
        .filter(([k]) => !THROWABLE_FIELDS.has(k))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, val]) => `${k}=${this.print(val)}`)
        .join(",");
      const cause = this.print(v.cause);
      return `BizError<${v.javaClass}>(message=${quote(v.message)},cause=${cause},fields={${extra}})`;
    }
    if (v instanceof Error) return `${v.name}(message=${quote(v.message)},cause=${this.print(v.cause)})`;
    const javaClass = (v as { $class?: unknown }).$class;
    const head = typeof javaClass === "string" ? javaClass : "";
    const fields = Object.keys(v)
      .sort()
      .map((k) => `${k}=${this.print((v as Record<string, unknown>)[k])}`)
      .join(",");
    return `${head}{${fields}}`;
  }
}

function plain(v: unknown): string {
  return new Describer().print(v);
}

/** The canonical description of one value (or of several values sharing one label space). */
export function describeJs(...values: unknown[]): string {
  const d = new Describer();
  for (const v of values) d.count(v);
  return values.map((v) => d.print(v)).join(" | ");
}
