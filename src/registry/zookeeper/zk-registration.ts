import { DEFAULT_DYNAMIC, type Url } from "../../core/index.js";
import type { RegistryLogger } from "../registry.js";
import { type ZkClient, ZkErrorCode, zkErrorCode } from "./zk-client.js";
import { parentPath, urlPath } from "./zk-paths.js";

/**
 * The registry's own nodes: a registered URL as an ephemeral (or, with `dynamic=false`,
 * persistent) node, under persistent parents that are created once and then remembered.
 */
export class ZkRegistration {
  readonly #root: string;
  readonly #logger: RegistryLogger;
  readonly #persistent = new Set<string>();

  constructor(root: string, logger: RegistryLogger) {
    this.#root = root;
    this.#logger = logger;
  }

  async register(client: ZkClient, url: Url): Promise<void> {
    const path = urlPath(this.#root, url);
    const ephemeral = url.boolean("dynamic", DEFAULT_DYNAMIC);
    await this.ensurePersistent(client, parentPath(path));
    try {
      await this.#createUnder(client, path, ephemeral);
      return;
    } catch (error) {
      if (zkErrorCode(error) !== ZkErrorCode.NODE_EXISTS) throw error;
    }
    if (!ephemeral) return;
    // The node exists: ours (a retry that already succeeded) or left by another session, e.g. our
    // expired one that the server has not reaped yet. Take it over (apache/dubbo#5135).
    const stat = await client.stat(path);
    if (stat !== undefined && stat.ephemeralOwner === client.sessionId) return;
    this.#logger.warn(
      `${path} is held by session 0x${stat?.ephemeralOwner ?? "?"}, not ours (0x${client.sessionId}); recreating it`,
    );
    await client.remove(path).catch((error: unknown) => {
      if (zkErrorCode(error) !== ZkErrorCode.NO_NODE) throw error;
    });
    await client.create(path, true);
  }

  async unregister(client: ZkClient, url: Url): Promise<void> {
    await client.remove(urlPath(this.#root, url)).catch((error: unknown) => {
      if (zkErrorCode(error) !== ZkErrorCode.NO_NODE) throw error;
    });
  }

  /**
   * A new session may be served by a server that has lost its data (restored or rebuilt): the
   * parents are created again rather than believed to exist.
   */
  forgetPersistentPaths(): void {
    this.#persistent.clear();
  }

  async ensurePersistent(client: ZkClient, path: string): Promise<void> {
    if (this.#persistent.has(path)) return;
    await client.mkdirp(path);
    this.#persistent.add(path);
  }

  /**
   * Creates a node whose parents we believe exist. An ops tool may have deleted them since (e.g. a
   * service tree cleaned up by hand): then the parents are forgotten, created again, and the create
   * retried once, rather than failing every retry on a stale belief.
   */
  async #createUnder(client: ZkClient, path: string, ephemeral: boolean): Promise<void> {
    try {
      await client.create(path, ephemeral);
    } catch (error) {
      if (zkErrorCode(error) !== ZkErrorCode.NO_NODE) throw error;
      for (const known of [...this.#persistent])
        if (path.startsWith(`${known}/`)) this.#persistent.delete(known);
      await this.ensurePersistent(client, parentPath(path));
      await client.create(path, ephemeral);
    }
  }
}
