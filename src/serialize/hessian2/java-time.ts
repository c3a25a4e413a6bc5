/**
 * java.time values as Dubbo's hessian-lite writes them: each type is replaced by a small "handle"
 * class (`com.alibaba.com.caucho.hessian.io.java8.LocalDateHandle` with year/month/day, ...) that
 * Java turns back into the java.time value on reading. TS side: LocalDate, LocalDateTime and
 * Instant are `Date`s (UTC fields), LocalTime and Duration are their Java `toString()` text.
 */
import { type JavaType, java } from "../../core/index.js";
import { mismatch } from "./errors.js";
import type { GraphWriter } from "./graph-writer.js";

const HANDLE_PACKAGE = "com.alibaba.com.caucho.hessian.io.java8.";
const LOCAL_DATE = `${HANDLE_PACKAGE}LocalDateHandle`;
const LOCAL_TIME = `${HANDLE_PACKAGE}LocalTimeHandle`;
const LOCAL_DATE_TIME = `${HANDLE_PACKAGE}LocalDateTimeHandle`;
const INSTANT = `${HANDLE_PACKAGE}InstantHandle`;
const DURATION = `${HANDLE_PACKAGE}DurationHandle`;

const DATE_FIELDS = Object.freeze(["year", "month", "day"]);
const TIME_FIELDS = Object.freeze(["hour", "minute", "second", "nano"]);
const DATE_TIME_FIELDS = Object.freeze(["date", "time"]);
const SECONDS_FIELDS = Object.freeze(["seconds", "nanos"]);

type TimeSink = Pick<GraphWriter, "beginObject" | "claimAnonymousRef" | "writeInt" | "writeLong">;

interface TimeOfDay {
  hour: number;
  minute: number;
  second: number;
  nano: number;
}

const TIME_TEXT = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const DATE_TEXT = /^([+-]?\d{4,9})-(\d{2})-(\d{2})$/;
const DURATION_TEXT =
  /^([-+]?)P(?:([-+]?\d+)D)?(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+)(?:[.,](\d{0,9}))?S)?)?$/i;

function parseTime(text: string): TimeOfDay | undefined {
  const m = TIME_TEXT.exec(text);
  if (m === null) return undefined;
  const nano = m[4] === undefined ? 0 : Number(m[4].padEnd(9, "0"));
  return { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0), nano };
}

function writeDateHandle(w: TimeSink, year: number, month: number, day: number): void {
  w.beginObject(LOCAL_DATE, DATE_FIELDS);
  w.claimAnonymousRef();
  w.writeInt(year);
  w.writeInt(month);
  w.writeInt(day);
}

function writeTimeHandle(w: TimeSink, t: TimeOfDay): void {
  w.beginObject(LOCAL_TIME, TIME_FIELDS);
  w.claimAnonymousRef();
  w.writeInt(t.hour);
  w.writeInt(t.minute);
  w.writeInt(t.second);
  w.writeInt(t.nano);
}

function writeSecondsHandle(w: TimeSink, className: string, seconds: number, nanos: number): void {
  w.beginObject(className, SECONDS_FIELDS);
  w.claimAnonymousRef();
  w.writeLong(seconds);
  w.writeInt(nanos);
}

function validDate(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

function epochMillis(value: unknown): number | undefined {
  if (validDate(value)) return value.getTime();
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string") {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

function durationParts(value: unknown): [number, number] | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) {
    const seconds = Math.floor(value / 1000);
    return [seconds, (value - seconds * 1000) * 1_000_000];
  }
  if (typeof value !== "string") return undefined;
  const m = DURATION_TEXT.exec(value);
  if (m === null || value.endsWith("T")) return undefined;
  const seconds = BigInt(m[5] ?? 0);
  let fraction = m[6] === undefined ? 0n : BigInt(m[6].padEnd(9, "0"));
  if ((m[5] ?? "").startsWith("-")) fraction = -fraction;
  let total =
    (BigInt(m[2] ?? 0) * 86400n + BigInt(m[3] ?? 0) * 3600n + BigInt(m[4] ?? 0) * 60n + seconds) *
      1_000_000_000n +
    fraction;
  if (m[1] === "-") total = -total;
  let secs = total / 1_000_000_000n;
  let nanos = total % 1_000_000_000n;
  if (nanos < 0n) {
    nanos += 1_000_000_000n;
    secs -= 1n;
  }
  return [Number(secs), Number(nanos)];
}

/** Writes a java.time value declared as `type` (its Java name); throws a path error for a wrong value. */
export function writeJavaTime(w: TimeSink, javaName: string, value: unknown): void {
  switch (javaName) {
    case "java.time.LocalDate": {
      if (validDate(value)) {
        writeDateHandle(w, value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
        return;
      }
      const m = typeof value === "string" ? DATE_TEXT.exec(value) : null;
      if (m !== null) {
        writeDateHandle(w, Number(m[1]), Number(m[2]), Number(m[3]));
        return;
      }
      throw mismatch("java.time.LocalDate (a Date or YYYY-MM-DD)", value);
    }
    case "java.time.LocalTime": {
      const t = validDate(value)
        ? timeOfDay(value)
        : typeof value === "string"
          ? parseTime(value)
          : undefined;
      if (t === undefined) throw mismatch("java.time.LocalTime (HH:mm[:ss[.fffffffff]])", value);
      writeTimeHandle(w, t);
      return;
    }
    case "java.time.LocalDateTime": {
      const ms = validDate(value)
        ? value.getTime()
        : typeof value === "string"
          ? Date.parse(`${value}Z`)
          : NaN;
      if (Number.isNaN(ms)) throw mismatch("java.time.LocalDateTime (a Date, UTC fields)", value);
      const d = new Date(ms);
      w.beginObject(LOCAL_DATE_TIME, DATE_TIME_FIELDS);
      w.claimAnonymousRef();
      writeDateHandle(w, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
      const t = timeOfDay(d);
      if (typeof value === "string") {
        const exact = parseTime(value.slice(value.indexOf("T") + 1));
        if (exact !== undefined) t.nano = exact.nano;
      }
      writeTimeHandle(w, t);
      return;
    }
    case "java.time.Instant": {
      const ms = epochMillis(value);
      if (ms === undefined) throw mismatch("java.time.Instant (a Date or epoch ms)", value);
      const seconds = Math.floor(ms / 1000);
      writeSecondsHandle(w, INSTANT, seconds, (ms - seconds * 1000) * 1_000_000);
      return;
    }
    case "java.time.Duration": {
      const parts = durationParts(value);
      if (parts === undefined) throw mismatch("java.time.Duration (ISO text like PT1.5S, or ms)", value);
      writeSecondsHandle(w, DURATION, parts[0], parts[1]);
      return;
    }
    default:
      throw mismatch(
        `${javaName}, which this codec cannot write (send it as java.type("${javaName}"))`,
        value,
      );
  }
}

function timeOfDay(d: Date): TimeOfDay {
  return {
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    nano: d.getUTCMilliseconds() * 1_000_000,
  };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** Java's LocalTime.toString(). */
function formatTime(hour: number, minute: number, second: number, nano: number): string {
  let text = `${pad(hour, 2)}:${pad(minute, 2)}`;
  if (second === 0 && nano === 0) return text;
  text += `:${pad(second, 2)}`;
  if (nano === 0) return text;
  if (nano % 1_000_000 === 0) return `${text}.${pad(nano / 1_000_000, 3)}`;
  if (nano % 1000 === 0) return `${text}.${pad(nano / 1000, 6)}`;
  return `${text}.${pad(nano, 9)}`;
}

/** Java's Duration.toString(). */
function formatDuration(seconds: number, nanos: number): string {
  if (seconds === 0 && nanos === 0) return "PT0S";
  const effective = seconds < 0 && nanos > 0 ? seconds + 1 : seconds;
  const hours = Math.trunc(effective / 3600);
  const minutes = Math.trunc((effective % 3600) / 60);
  const secs = effective % 60;
  let text = "PT";
  if (hours !== 0) text += `${hours}H`;
  if (minutes !== 0) text += `${minutes}M`;
  if (secs === 0 && nanos === 0 && text.length > 2) return text;
  text += seconds < 0 && nanos > 0 && secs === 0 ? "-0" : String(secs);
  if (nanos > 0) {
    const digits = String(seconds < 0 ? 2_000_000_000 - nanos : nanos + 1_000_000_000);
    text += `.${digits.slice(1).replace(/0+$/, "")}`;
  }
  return `${text}S`;
}

function num(value: unknown): number {
  return typeof value === "bigint" ? Number(value) : typeof value === "number" ? value : 0;
}

function utcDate(year: number, month: number, day: number, ms = 0): Date {
  const d = new Date(Date.UTC(2000, 0, 1) + ms);
  d.setUTCFullYear(year, month - 1, day);
  return d;
}

/**
 * The JS value of a decoded hessian-lite time handle, or `undefined` when `className` is not one.
 * `fields` are the handle's decoded fields (nested handles already converted).
 */
export function fromTimeHandle(className: string, fields: Record<string, unknown>): unknown {
  if (!className.startsWith(HANDLE_PACKAGE)) return undefined;
  switch (className) {
    case LOCAL_DATE:
      return utcDate(num(fields.year), num(fields.month), num(fields.day));
    case LOCAL_TIME:
      return formatTime(num(fields.hour), num(fields.minute), num(fields.second), num(fields.nano));
    case LOCAL_DATE_TIME: {
      const date = fields.date;
      const time = typeof fields.time === "string" ? parseTime(fields.time) : undefined;
      if (!(date instanceof Date) || time === undefined) return null;
      const ms = ((time.hour * 60 + time.minute) * 60 + time.second) * 1000 + Math.floor(time.nano / 1e6);
      return utcDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), ms);
    }
    case INSTANT:
      return new Date(num(fields.seconds) * 1000 + Math.floor(num(fields.nanos) / 1e6));
    case DURATION:
      return formatDuration(num(fields.seconds), num(fields.nanos));
    default:
      return undefined;
  }
}

const TIME_TYPES: ReadonlyMap<string, JavaType> = new Map<string, JavaType>([
  [LOCAL_DATE, java.LocalDate],
  [LOCAL_TIME, java.LocalTime],
  [LOCAL_DATE_TIME, java.LocalDateTime],
  [INSTANT, java.Instant],
  [DURATION, java.Duration],
]);

/** The java.time type a hessian-lite handle class stands for (`LocalDateHandle` → `java.LocalDate`). */
export function timeTypeOfHandle(className: string): JavaType | undefined {
  return TIME_TYPES.get(className);
}
