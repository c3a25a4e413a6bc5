// The ZooKeeper registry itself (it loads node-zookeeper-client): for tests and tools that build
// one directly. Applications get it through the `zookeeper` registry type, on first use.
export { createZookeeperRegistry, ZookeeperRegistry } from "./zookeeper-registry.js";
