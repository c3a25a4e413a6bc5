import {
  Code,
  DEFAULT_CHECK,
  DEFAULT_REGISTRY_SESSION_MS,
  DEFAULT_REGISTRY_TIMEOUT_MS,
  RpcError,
  type Url,
} from "../../core/index.js";
import type { RegistryLogger } from "../registry.js";
import { ZkClient, type ZkClientOptions, type ZkState } from "./zk-client.js";

/**
 * The session timeout the client asks ZooKeeper for: Java's `zk.session.expire` (what its Curator
 * client reads), else the registry's `session`, else 60 s. The server bounds it to its own
 * `minSessionTimeout`..`maxSessionTimeout`.
 */
function sessionTimeoutOf(url: Url): number {
  return url.number("zk.session.expire", url.number("session", DEFAULT_REGISTRY_SESSION_MS));
}

/** What the registry does when its ZooKeeper session changes. */
export interface ZkSessionHooks {
  /** True once the registry is destroyed: state changes are then ignored. */
  isDestroyed(): boolean;
  /** Connected on a new session (after expiry, or after a failed start): redo everything. */
  onNewSession(): void;
  /** Connected again on the same session: nodes and watches survived; catch up. */
  onReconnected(): void;
  /** The old session's client is closed: drop whatever was bound to it (watches, known paths). */
  onClientReplaced(): void;
}

/**
 * The registry's ZooKeeper connection: the client built from the registry URL, its first connect,
 * and the session lifecycle. A reconnect within the session is `onReconnected`; an expired session
 * is replaced by a new client, which reports `onNewSession` once connected.
 *
 * A session can also be lost without the server ever saying so: a server that restarted with its
 * data lost (a rebuilt node, a restored snapshot, a new ensemble behind the same address) refuses
 * every session whose last-seen zxid is ahead of its own, by closing the socket, so the client
 * would retry the dead session for ever. As Curator does, a connection that stays down for longer
 * than the session timeout counts as an expiry: by then the server has expired the session anyway.
 */
export class ZkSession {
  readonly #url: Url;
  readonly #logger: RegistryLogger;
  readonly #hooks: ZkSessionHooks;
  readonly #clientOptions: ZkClientOptions;
  readonly #timeoutMs: number;
  #client: ZkClient;
  #wasConnected = false;
  #needsRecovery = false;
  /** When the link of a connected session dropped, while it is down (for the "restored" record). */
  #lostAt: number | undefined;
  /** Armed while a connected session is disconnected; fires once the session timeout has passed. */
  #lostTimer: NodeJS.Timeout | undefined;

  constructor(url: Url, logger: RegistryLogger, hooks: ZkSessionHooks) {
    this.#url = url;
    this.#logger = logger;
    this.#hooks = hooks;
    this.#timeoutMs = url.number("timeout", DEFAULT_REGISTRY_TIMEOUT_MS);
    const username = url.username ?? url.get("username");
    const password = url.password ?? url.get("password");
    this.#clientOptions = {
      connectString: [url.address, ...url.list("backup")].join(","),
      sessionTimeoutMs: sessionTimeoutOf(url),
      operationTimeoutMs: this.#timeoutMs,
      digest: username === undefined || username === "" ? undefined : `${username}:${password ?? ""}`,
      onBadReply: (error) =>
        logger.warn(`ZooKeeper ${url.address} sent a reply that could not be read; reconnecting`, error),
    };
    this.#client = this.#newClient();
  }

  /** The client of the current session; a different one after the session expired. */
  get client(): ZkClient {
    return this.#client;
  }

  /**
   * Connects, waiting up to `timeout` ms. With `check=true` (default) a failure is an error;
   * with `check=false` the client keeps trying in the background and recovers when connected.
   */
  async start(): Promise<void> {
    try {
      await this.#client.connect(this.#timeoutMs);
      this.#wasConnected = true;
    } catch (error) {
      const reason = error instanceof RpcError ? error.rawMessage : String(error);
      const unreachable = `the ZooKeeper registry ${this.#url.address} is unreachable: ${reason}`;
      if (this.#url.boolean("check", DEFAULT_CHECK)) {
        this.#client.close();
        throw new RpcError(
          `${unreachable}; start ZooKeeper there or correct the registry address, ` +
            "or set `check: false` on the registry to start without it",
          Code.Unavailable,
          { cause: error },
        );
      }
      this.#logger.warn(
        `${unreachable}; starting without it (check=false): registrations and subscriptions are made when it answers`,
      );
      this.#needsRecovery = true;
    }
  }

  close(): void {
    this.#disarmLostTimer();
    this.#client.close();
  }

  #newClient(): ZkClient {
    const client = new ZkClient(this.#clientOptions);
    client.onState((state) => this.#onState(client, state));
    return client;
  }

  #onState(client: ZkClient, state: ZkState): void {
    if (client !== this.#client || this.#hooks.isDestroyed()) return;
    if (state === "disconnected") this.#armLostTimer(client);
    else this.#disarmLostTimer();
    switch (state) {
      case "connected":
        if (this.#needsRecovery) {
          this.#needsRecovery = false;
          this.#wasConnected = true;
          this.#lostAt = undefined;
          this.#logger.info(
            `ZooKeeper ${this.#url.address}: connected on a new session 0x${client.sessionId}; registering and subscribing again`,
          );
          this.#hooks.onNewSession();
        } else if (this.#wasConnected) {
          if (this.#lostAt !== undefined) {
            this.#logger.info(
              `ZooKeeper ${this.#url.address}: connection restored after ${Date.now() - this.#lostAt} ms, same session 0x${client.sessionId}`,
            );
            this.#lostAt = undefined;
          }
          this.#hooks.onReconnected();
        }
        this.#wasConnected = true;
        return;
      case "expired":
        this.#logger.warn(
          `ZooKeeper ${this.#url.address}: session 0x${client.sessionId} expired; opening a new session and re-registering`,
        );
        this.#replaceClient();
        return;
      case "auth-failed":
        this.#logger.warn(
          `ZooKeeper ${this.#url.address} rejected the digest credentials (check username/password of the registry URL)`,
        );
        return;
      case "disconnected":
        if (this.#wasConnected && this.#lostAt === undefined) {
          this.#lostAt = Date.now();
          this.#logger.warn(
            `ZooKeeper ${this.#url.address}: connection lost; reconnecting (session 0x${client.sessionId} ` +
              `survives up to ${this.#clientOptions.sessionTimeoutMs} ms; providers are kept meanwhile)`,
          );
        }
        return;
    }
  }

  /** Starts the session-timeout clock of a connected session that just lost its connection. */
  #armLostTimer(client: ZkClient): void {
    if (!this.#wasConnected || this.#lostTimer !== undefined) return;
    const sessionTimeoutMs = client.sessionTimeoutMs;
    this.#lostTimer = setTimeout(() => {
      this.#lostTimer = undefined;
      if (client !== this.#client || client.connected || this.#hooks.isDestroyed()) return;
      this.#logger.warn(
        `ZooKeeper ${this.#url.address}: no connection for the session timeout (${sessionTimeoutMs} ms); ` +
          `taking session 0x${client.sessionId} as lost (the server expired it, or restarted without its data) ` +
          "and opening a new session to re-register and re-subscribe",
      );
      this.#replaceClient();
    }, sessionTimeoutMs);
    this.#lostTimer.unref();
  }

  #disarmLostTimer(): void {
    if (this.#lostTimer !== undefined) clearTimeout(this.#lostTimer);
    this.#lostTimer = undefined;
  }

  #replaceClient(): void {
    this.#client.close();
    this.#hooks.onClientReplaced();
    this.#needsRecovery = true;
    this.#client = this.#newClient();
    this.#client.connect(this.#timeoutMs).catch(() => {
      // The client keeps trying; recovery runs on the "connected" event.
    });
  }
}
