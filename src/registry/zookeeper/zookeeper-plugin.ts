import type { Url } from "../../core/index.js";
import { type RegistryExtension, registryPlugin } from "../registry-factory.js";
import { assertMillisParams, badRegistryParam } from "../url-settings.js";

const HOST_PORT = /^[A-Za-z0-9_.:[\]-]+:\d{1,5}$/;

/** The ZooKeeper settings of a registry URL: Curator's session/connect times and the backup servers. */
function validateZookeeperUrl(url: Url, setting: string): void {
  assertMillisParams("zookeeper", url, setting, { "zk.session.expire": 1, session: 1, timeout: 1 });
  for (const backup of url.list("backup")) {
    if (!HOST_PORT.test(backup)) {
      throw badRegistryParam(
        "zookeeper",
        url,
        setting,
        "backup",
        "a comma-separated list of host:port servers",
      );
    }
  }
}

/**
 * The `zookeeper` registry type. The registry and `node-zookeeper-client` load on the first
 * `zookeeper://` registry an application opens, never in an application that names none.
 */
export const zookeeperRegistryType: RegistryExtension = {
  create: async (url, context) =>
    (await import("./zookeeper-registry.js")).createZookeeperRegistry(url, context),
  validate: validateZookeeperUrl,
};

export const zookeeperRegistryPlugin = registryPlugin("zookeeper", zookeeperRegistryType);
