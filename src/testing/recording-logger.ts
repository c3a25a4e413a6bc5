import { createLogger, type LogFields, type Logger, type LogLevel, type LogSink } from "../core/index.js";

/** One record a recording sink kept. */
export interface LogRecord {
  readonly level: LogLevel;
  readonly message: string;
  readonly category?: string | undefined;
  readonly error?: unknown;
}

/** A sink of pino's shape (`level(fields, message)`) that keeps every record it is given. */
export function createRecordingSink(): { readonly sink: LogSink; readonly records: LogRecord[] } {
  const records: LogRecord[] = [];
  const keep =
    (level: LogLevel) =>
    (fields: LogFields, message: string): void => {
      records.push({ level, message, category: fields.category, error: fields.err });
    };
  const sink: LogSink = {
    error: keep("error"),
    warn: keep("warn"),
    info: keep("info"),
    debug: keep("debug"),
    trace: keep("trace"),
  };
  return { sink, records };
}

/** A logger that keeps every record (all levels, every category), for tests to assert on. */
export interface RecordingLogger extends Logger {
  readonly records: LogRecord[];
  /** The messages logged at `level`, in order. */
  messages(level: LogLevel): string[];
}

export function createRecordingLogger(): RecordingLogger {
  const { sink, records } = createRecordingSink();
  return {
    ...createLogger({ sink, level: "trace" }),
    records,
    messages: (level) => records.filter((r) => r.level === level).map((r) => r.message),
  };
}
