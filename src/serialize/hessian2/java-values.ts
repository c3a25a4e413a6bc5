/**
 * Java values with no Hessian primitive, written the way hessian-lite writes them: BigDecimal as
 * an object with one field `value` (its decimal text), BigInteger as its bean fields `signum` and
 * `mag` (big-endian int words), exceptions as Throwable fields, stack frames as StackTraceElement.
 */
import { BizError, copySlotTypes } from "../../core/index.js";

export const BIG_DECIMAL = "java.math.BigDecimal";
export const BIG_INTEGER = "java.math.BigInteger";
export const STACK_TRACE_ELEMENT = "java.lang.StackTraceElement";
export const BIG_DECIMAL_FIELDS = Object.freeze(["value"]);
export const BIG_INTEGER_FIELDS = Object.freeze(["signum", "mag"]);
export const STACK_FIELDS = Object.freeze(["declaringClass", "methodName", "fileName", "lineNumber"]);
export const ENUM_FIELDS = Object.freeze(["name"]);

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The decimal text of a value declared BigDecimal, or undefined when it is not one. */
export function decimalText(value: unknown): string | undefined {
  if (typeof value === "string") return DECIMAL_TEXT.test(value) ? value : undefined;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === "bigint") return value.toString();
  return undefined;
}

export function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : undefined;
  if (typeof value === "string" && /^[+-]?\d+$/.test(value)) return BigInt(value);
  return undefined;
}

/** BigInteger.mag: the magnitude as big-endian 32-bit words, no leading zero word (signed ints on the wire). */
export function magnitudeWords(value: bigint): number[] {
  let magnitude = value < 0n ? -value : value;
  const words: number[] = [];
  while (magnitude > 0n) {
    words.push(Number(BigInt.asIntN(32, magnitude & 0xffffffffn)));
    magnitude >>= 32n;
  }
  return words.reverse();
}

export function fromBigIntegerFields(fields: Record<string, unknown>): bigint {
  const mag = Array.isArray(fields.mag) ? fields.mag : [];
  let magnitude = 0n;
  for (const word of mag) magnitude = (magnitude << 32n) | BigInt(Number(word) >>> 0);
  return Number(fields.signum) < 0 ? -magnitude : magnitude;
}

/** Fields every Throwable has; the rest of an exception object lands in BizError.fields. */
const THROWABLE_FIELDS: ReadonlySet<string> = new Set([
  "detailMessage",
  "cause",
  "stackTrace",
  "suppressedExceptions",
  "depth",
  "backtrace",
]);

export function isThrowableClass(fields: readonly string[]): boolean {
  return fields.includes("detailMessage") && fields.includes("stackTrace");
}

function frameText(frame: unknown): string | undefined {
  if (typeof frame !== "object" || frame === null) return undefined;
  const f = frame as Record<string, unknown>;
  const line = typeof f.lineNumber === "number" ? f.lineNumber : -1;
  const file = typeof f.fileName === "string" ? f.fileName : undefined;
  const where =
    line === -2
      ? "Native Method"
      : file === undefined
        ? "Unknown Source"
        : line >= 0
          ? `${file}:${line}`
          : file;
  return `${String(f.declaringClass)}.${String(f.methodName)}(${where})`;
}

/** Exceptions decoded from a Java exception whose message was null (JS messages are strings). */
const nullMessages = new WeakSet<Error>();

/** Whether Java wrote this exception with a null message, so it goes back with one. */
export function hasNullMessage(error: Error): boolean {
  return nullMessages.has(error);
}

/** A decoded Java exception object as a BizError. `self` is the raw object (Java's "no cause" is cause == this). */
export function toBizError(className: string, self: Record<string, unknown>): BizError {
  const stack: string[] = [];
  if (Array.isArray(self.stackTrace)) {
    for (const frame of self.stackTrace) {
      const text = frameText(frame);
      if (text !== undefined) stack.push(text);
    }
  }
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(self)) if (!THROWABLE_FIELDS.has(key)) fields[key] = self[key];
  copySlotTypes(self, fields);
  const cause = self.cause === self || self.cause === null ? undefined : self.cause;
  const message = typeof self.detailMessage === "string" ? self.detailMessage : "";
  const error = new BizError(message, {
    javaClass: className,
    javaStack: stack,
    fields,
    ...(cause === undefined ? {} : { cause }),
  });
  if (self.detailMessage === null || self.detailMessage === undefined) nullMessages.add(error);
  return error;
}

export interface StackFrame {
  readonly declaringClass: string;
  readonly methodName: string;
  readonly fileName: string | null;
  readonly lineNumber: number;
}

const JAVA_FRAME = /^(.+)\.([^.(]+)\((.*)\)$/;
const JS_FRAME = /^\s*at (?:(.+?) \()?(?:.*[/\\])?([^/\\:()]+):(\d+):\d+\)?$/;
const MAX_FRAMES = 64;

/** The frames Java will see: a BizError's Java stack as sent, else the JS stack translated. */
export function stackFramesOf(error: Error): StackFrame[] {
  const frames: StackFrame[] = [];
  if (error instanceof BizError && error.javaStack.length > 0) {
    for (const line of error.javaStack.slice(0, MAX_FRAMES)) {
      const m = JAVA_FRAME.exec(line);
      if (m === null) continue;
      const where = m[3] ?? "";
      const colon = where.lastIndexOf(":");
      const native = where === "Native Method";
      const file = native || where === "Unknown Source" ? null : colon < 0 ? where : where.slice(0, colon);
      const lineNumber = native ? -2 : colon < 0 ? -1 : Number(where.slice(colon + 1));
      frames.push({ declaringClass: m[1]!, methodName: m[2]!, fileName: file, lineNumber });
    }
    return frames;
  }
  const lines = (error.stack ?? "").split("\n");
  for (const line of lines) {
    if (frames.length >= MAX_FRAMES) break;
    const m = JS_FRAME.exec(line);
    if (m === null) continue;
    const fn = m[1] ?? "<anonymous>";
    const dot = fn.lastIndexOf(".");
    frames.push({
      declaringClass: dot > 0 ? fn.slice(0, dot) : "js",
      methodName: dot > 0 ? fn.slice(dot + 1) : fn,
      fileName: m[2] ?? null,
      lineNumber: Number(m[3]),
    });
  }
  return frames;
}
