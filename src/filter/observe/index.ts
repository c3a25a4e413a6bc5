// Observing filters: the access log and the provider's timeout-overrun warning.
export {
  type AccessLogOptions,
  accessLogFilter,
  accessLogFilterExtension,
  createAccessLogFilter,
  formatAccessLine,
} from "./accesslog-filter.js";
export {
  createTimeoutFilter,
  type TimeoutFilterOptions,
  timeoutFilter,
  timeoutFilterExtension,
} from "./timeout-filter.js";
