import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";

/** From most to least severe; `silent` writes nothing. */
/** The environment variable naming the categories whose debug and trace records are logged. */
export const TRACE_ENV = "DUBBO_TRACE";

export const LOG_LEVELS = ["silent", "error", "warn", "info", "debug", "trace"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Whether a logger at `level` writes a record of level `wanted`. */
export function levelAllows(level: LogLevel, wanted: LogLevel): boolean {
  return LOG_LEVELS.indexOf(wanted) <= LOG_LEVELS.indexOf(level);
}

/** Checks a level given as text (an option or an environment variable named by `setting`). */
export function parseLogLevel(text: string, setting: string): LogLevel {
  const level = text.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new RpcError(
    `${setting} must be one of ${LOG_LEVELS.join(", ")}, got "${text}"`,
    Code.InvalidArgument,
  );
}

/**
 * The categories named in `DUBBO_TRACE=registry,transport` (or a list): `all` for `all` or `*`,
 * undefined when none is named.
 */
export function parseCategories(
  given: string | readonly string[] | undefined,
): Set<string> | "all" | undefined {
  if (given === undefined) return undefined;
  const names = (typeof given === "string" ? given.split(",") : given).map((n) => n.trim()).filter(Boolean);
  if (names.length === 0) return undefined;
  return names.includes("all") || names.includes("*") ? "all" : new Set(names);
}
