// The web console: a small admin page over a ZooKeeper registry (services, providers, consumers,
// dubbo-admin's rules) and the applications' metrics, served on its own port or the QoS port.
export {
  CONSOLE_PATH,
  type ConsoleHandler,
  type ConsoleSources,
  createConsoleHandler,
} from "./console-handler.js";
export { type MethodMetricsRow, methodMetricsRows } from "./method-metrics.js";
export {
  RegistryView,
  RULE_SUFFIXES,
  type RuleEntry,
  type RuleKind,
  type ServiceEntry,
} from "./registry-view.js";
