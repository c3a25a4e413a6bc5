import { inspect } from "node:util";
import { RpcError } from "../error/rpc-error.js";

/** What a record carries besides its message, under pino's key names (`err` for an error). */
export interface LogFields {
  readonly err?: unknown;
  readonly category?: string;
}

/** One level's method in pino's shape: `logger.warn({ err }, "message")`. */
export type LogMethod = (fields: LogFields, message: string) => void;

/**
 * Where records go. A pino logger fits as is (`createDubbo({ logger: pino() })`), and so does any
 * object with these five methods; the level filtering is done before a record reaches the sink.
 */
export interface LogSink {
  readonly error: LogMethod;
  readonly warn: LogMethod;
  readonly info: LogMethod;
  readonly debug: LogMethod;
  readonly trace: LogMethod;
}

/**
 * An error's text for a log line. The framework's own errors (`RpcError`) already name what failed
 * and what to change, so their message is enough; anything else is a bug somewhere and keeps its stack.
 */
function errorText(message: string, error: unknown): string {
  if (error instanceof RpcError) return message.includes(error.rawMessage) ? "" : `: ${error.message}`;
  if (error instanceof Error) return `\n${error.stack ?? error.message}`;
  return `: ${inspect(error)}`;
}

function line(level: string, fields: LogFields, message: string): string {
  const category = fields.category === undefined ? "" : ` ${fields.category}:`;
  const cause = fields.err === undefined ? "" : errorText(message, fields.err);
  return `[dubbo-ts] ${level}${category} ${message}${cause}\n`;
}

function writer(level: string): LogMethod {
  return (fields, message) => {
    process.stderr.write(line(level, fields, message));
  };
}

/** The default sink: one line per record on stderr, `[dubbo-ts] WARN message`. */
export const stderrSink: LogSink = {
  error: writer("ERROR"),
  warn: writer("WARN"),
  info: writer("INFO"),
  debug: writer("DEBUG"),
  trace: writer("TRACE"),
};
