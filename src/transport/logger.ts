// The transport reports through the application's logger (defined in core, shared by every layer).
export { consoleLogger, type Logger } from "../core/index.js";
