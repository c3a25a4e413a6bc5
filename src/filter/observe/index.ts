// Observing filters: the access log and the provider's timeout-overrun warning, one instance per
// application (each writes to its application's logger; the access log's buffers are its own).
export { createAccessLogFilter } from "./accesslog-filter.js";
export { createTimeoutFilter } from "./timeout-filter.js";
