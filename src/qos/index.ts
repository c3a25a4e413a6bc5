// The QoS port (Java's 22222): telnet and HTTP on one port, Java 3's commands and probes.
export * from "./console/index.js";
export { QosServer } from "./qos-server.js";
export type {
  QosConfigEntry,
  QosLookup,
  QosMethodChoice,
  QosMethodCount,
  QosProvider,
  QosSite,
} from "./qos-site.js";
