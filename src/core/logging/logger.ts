import { type LogLevel, levelAllows, parseCategories } from "./log-settings.js";
import { type LogSink, stderrSink } from "./log-sink.js";

/**
 * The one logger every layer reports through: what nobody awaits (dropped connections, retries,
 * swallowed failsafe errors, unreadable registry nodes) and what an operator watches (registry
 * connection lost and restored, providers added and removed, slow calls). The application builds
 * one with {@link createLogger} and hands it to every layer; layers never print themselves.
 *
 * `debug` and `trace` name a category (`registry`, `cluster`, `transport`, `protocol`, `app`,
 * `accesslog`) so an operator can switch on the detail of one part, as `GRPC_TRACE` does.
 */
export interface Logger {
  error(message: string, error?: unknown): void;
  warn(message: string, error?: unknown): void;
  info(message: string): void;
  debug(category: string, message: string): void;
  trace(category: string, message: string): void;
}

export interface LoggerOptions {
  /** Where records go: a pino instance or anything of its shape. Default: one line each on stderr. */
  readonly sink?: LogSink | undefined;
  /**
   * The lowest level written. Default `info`, or `trace` when `categories` is given (naming a
   * category means "show me its detail").
   */
  readonly level?: LogLevel | undefined;
  /**
   * Which categories' `debug`/`trace` records are written: a list or a comma-separated string as
   * in `DUBBO_TRACE=registry,transport`; `all` (or `*`) for every one. Default: every category,
   * filtered by `level` alone.
   */
  readonly categories?: string | readonly string[] | undefined;
}

// Tells a Logger made here from a pino-shaped sink, which has methods of the same names.
const kLogger = Symbol.for("dubbo-ts.Logger");
// The level switch of a Logger made here (QoS `switchLogLevel`).
const kSetLevel = Symbol.for("dubbo-ts.Logger.setLevel");

/** Whether `value` is a {@link Logger} made by {@link createLogger} (rather than a sink). */
export function isLogger(value: Logger | LogSink): value is Logger {
  return (value as { [kLogger]?: unknown })[kLogger] === true;
}

/** A logger writing to `sink` what `level` and `categories` let through. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const sink = options.sink ?? stderrSink;
  const categories = parseCategories(options.categories);
  let level = options.level ?? (categories === undefined ? "info" : "trace");
  const on = (wanted: LogLevel) => levelAllows(level, wanted);
  const detailOn = (wanted: LogLevel, category: string) =>
    on(wanted) && (categories === undefined || categories === "all" || categories.has(category));
  const logger: Logger = {
    error(message, error) {
      if (on("error")) sink.error(error === undefined ? {} : { err: error }, message);
    },
    warn(message, error) {
      if (on("warn")) sink.warn(error === undefined ? {} : { err: error }, message);
    },
    info(message) {
      if (on("info")) sink.info({}, message);
    },
    debug(category, message) {
      if (detailOn("debug", category)) sink.debug({ category }, message);
    },
    trace(category, message) {
      if (detailOn("trace", category)) sink.trace({ category }, message);
    },
  };
  return Object.assign(logger, {
    [kLogger]: true,
    [kSetLevel]: (next: LogLevel) => {
      level = next;
    },
  });
}

/**
 * Changes the lowest level a logger made by {@link createLogger} writes, from now on (Java's
 * `LoggerFactory.setLevel`); false for any other logger, whose level is its own business. A pino
 * sink still applies its own level after this one.
 */
export function setLogLevel(logger: Logger, level: LogLevel): boolean {
  const set = (logger as { [kSetLevel]?: (level: LogLevel) => void })[kSetLevel];
  set?.(level);
  return set !== undefined;
}

/** Writes warnings and errors, and `info` for what an operator watches, to stderr. */
export const consoleLogger: Logger = createLogger();

/** Writes nothing (for tests and for callers that report elsewhere). */
export const silentLogger: Logger = createLogger({ level: "silent" });

/**
 * The same logger with `info` records turned into `debug` records of `category`: for a part used
 * internally (the embedded registry's own dubbo client) whose routine news is not the operator's.
 */
export function demoteInfo(logger: Logger, category: string): Logger {
  return {
    error: (message, error) => logger.error(message, error),
    warn: (message, error) => logger.warn(message, error),
    info: (message) => logger.debug(category, message),
    debug: (c, message) => logger.debug(c, message),
    trace: (c, message) => logger.trace(c, message),
  };
}
