/**
 * Set on every ZooKeeper registry, so the application-level discovery recognises one without
 * importing the registry's class (and with it the ZooKeeper client) into every application.
 */
export const IS_ZOOKEEPER_REGISTRY: unique symbol = Symbol("dubbo-ts.zookeeper-registry");
