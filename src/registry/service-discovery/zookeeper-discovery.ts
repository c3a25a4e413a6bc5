// The ZooKeeper parts of application-level discovery, imported by `ApplicationDiscovery` only once
// an application has a ZooKeeper registry (they load the ZooKeeper client).
export { ZkMetadataReport } from "../metadata/zk-metadata-report.js";
export { MetadataFetcher } from "./metadata-fetch.js";
export { ServiceDiscoveryRegistry } from "./service-discovery-registry.js";
export { ZkInstanceRegistration } from "./zk-instance-registration.js";
