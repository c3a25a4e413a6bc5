import { setTimeout as sleep } from "node:timers/promises";
import { Code, RpcError } from "../../core/index.js";
import { ZkErrorCode, zkErrorCode } from "../zookeeper/zk-client.js";
import { parentPath } from "../zookeeper/zk-paths.js";
import type { ZookeeperRegistry } from "../zookeeper/zookeeper-registry.js";
import type { MetadataInfo, ServiceInfo } from "./metadata-info.js";
import { fromJavaMetadataInfo } from "./metadata-service.js";

/** Java's `ServiceNameMapping.DEFAULT_MAPPING_GROUP`: `/dubbo/mapping/{interface}`. */
const MAPPING_GROUP = "mapping";
/** Java's metadata report folder: `/dubbo/metadata/{application}/{revision}`. */
const METADATA_GROUP = "metadata";
/** The config center's folder: `/dubbo/config/{group}/{key}`. */
const CONFIG_GROUP = "config";
/** Compare-and-set attempts, and the most to wait between two (Java's `dubbo.metadata-report.cas-retry-*`). */
const CAS_ATTEMPTS = 10;
const CAS_MAX_WAIT_MS = 100;
/** Reads of a node that keeps being deleted and created between `getData` and `exists`. */
const READ_ATTEMPTS = 3;

/**
 * The metadata Dubbo 3 keeps in ZooKeeper beside the registry, on the registry's own session (Java's
 * `ZookeeperMetadataReport`, the registry used as metadata center): the interface → application
 * mapping and the applications' metadata for `storage-type=remote`.
 */
export class ZkMetadataReport {
  readonly #registry: ZookeeperRegistry;

  constructor(registry: ZookeeperRegistry) {
    this.#registry = registry;
  }

  #path(group: string, key: string): string {
    const root = this.#registry.root;
    return `${root === "/" ? "" : root}/${group}/${key}`;
  }

  /**
   * Adds `app` to the comma-separated applications of `/dubbo/mapping/{iface}`, as Java's
   * `MetadataServiceNameMapping.map` does: read the node and its version, leave it alone when the
   * application is listed, else write the longer list only if nobody wrote in between (retrying
   * on a lost race), so another application's entry is never clobbered.
   */
  async addMapping(serviceInterface: string, app: string): Promise<void> {
    const path = this.#path(MAPPING_GROUP, serviceInterface);
    for (let attempt = 1; ; attempt++) {
      const client = this.#registry.client;
      const node = await client.getData(path);
      const apps = splitApps(node?.data.toString("utf8") ?? "");
      if (apps.includes(app)) return;
      const content = Buffer.from([...apps, app].join(","), "utf8");
      try {
        if (node === undefined) {
          await client.mkdirp(parentPath(path));
          await client.create(path, false, content);
        } else await client.setData(path, content, node.version);
        return;
      } catch (error) {
        const code = zkErrorCode(error);
        const lostRace = code === ZkErrorCode.NODE_EXISTS || code === ZkErrorCode.BAD_VERSION;
        if (!lostRace || attempt >= CAS_ATTEMPTS) throw error;
        await sleep(Math.floor(Math.random() * CAS_MAX_WAIT_MS));
      }
    }
  }

  /** The applications `/dubbo/mapping/{iface}` lists (none when the node is missing). */
  async readMapping(serviceInterface: string, watcher?: () => void): Promise<string[]> {
    return splitApps((await this.#readText(this.#path(MAPPING_GROUP, serviceInterface), watcher)) ?? "");
  }

  /**
   * A config-center entry `/dubbo/config/{group}/{key}` (e.g. a migration rule), if present. With
   * a watcher, ZooKeeper calls it once on the entry's next change, creation or deletion.
   */
  readConfig(group: string, key: string, watcher?: () => void): Promise<string | undefined> {
    return this.#readText(this.#path(CONFIG_GROUP, `${group}/${key}`), watcher);
  }

  /**
   * A node's text; a watcher is also set on a missing node (`exists`), to hear of its creation.
   * A node created between the two reads is read again, else its text would be missed.
   */
  async #readText(path: string, watcher: (() => void) | undefined): Promise<string | undefined> {
    const client = this.#registry.client;
    for (let attempt = 1; ; attempt++) {
      const node = await client.getData(path, watcher);
      if (node !== undefined) return node.data.toString("utf8");
      if (watcher === undefined || !(await client.exists(path, watcher)) || attempt >= READ_ATTEMPTS) {
        return undefined;
      }
    }
  }

  /** Writes `/dubbo/metadata/{app}/{revision}` once (a revision's content never changes). */
  async publishMetadata(info: MetadataInfo): Promise<void> {
    const path = this.#path(METADATA_GROUP, `${info.app}/${info.revision}`);
    const client = this.#registry.client;
    if (await client.exists(path)) return;
    await client.mkdirp(parentPath(path));
    await client.create(path, false, Buffer.from(metadataJson(info), "utf8")).catch((error: unknown) => {
      if (zkErrorCode(error) !== ZkErrorCode.NODE_EXISTS) throw error;
    });
  }

  /** Reads the metadata a provider published for `revision`. */
  async readMetadata(app: string, revision: string): Promise<MetadataInfo> {
    const path = this.#path(METADATA_GROUP, `${app}/${revision}`);
    const node = await this.#registry.client.getData(path);
    if (node === undefined) {
      throw new RpcError(
        `no metadata at ${path}: the provider of ${app} said storage-type=remote but published nothing for revision ${revision}`,
        Code.NotFound,
      );
    }
    try {
      return fromJavaMetadataInfo(JSON.parse(node.data.toString("utf8")));
    } catch (cause) {
      throw new RpcError(`the metadata at ${path} is not JSON`, Code.InvalidArgument, { cause });
    }
  }
}

function splitApps(content: string): string[] {
  return content
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
}

/** Java's JSON of a `MetadataInfo` (fastjson2: fields by name, unset ones left out). */
function metadataJson(info: MetadataInfo): string {
  const service = (s: ServiceInfo): Record<string, unknown> => ({
    ...(s.group === undefined ? {} : { group: s.group }),
    name: s.name,
    params: s.params,
    path: s.path,
    port: s.port,
    protocol: s.protocol,
    ...(s.version === undefined ? {} : { version: s.version }),
  });
  const services = Object.fromEntries(Object.entries(info.services).map(([k, s]) => [k, service(s)]));
  return JSON.stringify({ app: info.app, revision: info.revision, services });
}
