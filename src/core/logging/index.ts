// The one logger of an application: levels, a pino-shaped sink, and DUBBO_TRACE categories.

export { LOG_LEVELS, type LogLevel, parseLogLevel, TRACE_ENV } from "./log-settings.js";
export type { LogFields, LogMethod, LogSink } from "./log-sink.js";
export {
  consoleLogger,
  createLogger,
  demoteInfo,
  isLogger,
  type Logger,
  type LoggerOptions,
  setLogLevel,
  silentLogger,
} from "./logger.js";
