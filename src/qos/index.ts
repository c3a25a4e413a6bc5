// The QoS port (Java's 22222): telnet and HTTP on one port, Java 3's commands and probes.
export { QosServer } from "./qos-server.js";
export type { QosConfigEntry, QosLookup, QosMethodCount, QosProvider, QosSite } from "./qos-site.js";
