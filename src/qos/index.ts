// The QoS port (Java's 22222): telnet and HTTP on one port, Java 3's commands and probes.
export { type QosAnswer, type QosSession, runQosCommand } from "./commands.js";
export * from "./console/index.js";
export { QosServer, type QosServerOptions } from "./qos-server.js";
export type {
  QosConfigEntry,
  QosLookup,
  QosMethodChoice,
  QosMethodCount,
  QosProvider,
  QosSite,
} from "./qos-site.js";
export { textTable } from "./text-table.js";
