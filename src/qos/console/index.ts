// The web console: a small admin page over a ZooKeeper registry (services, providers, consumers,
// dubbo-admin's rules) and the applications' metrics, served on its own port or the QoS port.
export {
  CONSOLE_PATH,
  type ConsoleHandler,
  createConsoleHandler,
} from "./console-handler.js";
export { openRegistryView } from "./open-registry-view.js";
export type { ApplicationEntry, RegistryView } from "./registry-view.js";
