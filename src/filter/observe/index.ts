// Observing filters: the access log and the provider's timeout-overrun warning, one instance per
// application (each writes to its application's logger; the access log's buffers are its own).
export { type AccessLogOptions, createAccessLogFilter, formatAccessLine } from "./accesslog-filter.js";
export { createTimeoutFilter, type TimeoutFilterOptions } from "./timeout-filter.js";
