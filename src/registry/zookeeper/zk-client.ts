import zookeeper from "node-zookeeper-client";
import { Code, RpcError } from "../../core/index.js";
import type { ByteChunks } from "./byte-chunks.js";
import { ChildNames, withoutNames } from "./child-names.js";
import { ZkFrames } from "./zk-frames.js";

/**
 * A promise-based face over the npm `node-zookeeper-client`, exposing only what the registry uses.
 * Every operation fails fast with `Unavailable` when the session is not connected (the library
 * would otherwise queue it until a reconnect) and is bounded by `operationTimeoutMs`.
 */
export interface ZkClientOptions {
  /** `host:port,host:port` (the main address then the `backup=` ones). */
  readonly connectString: string;
  readonly sessionTimeoutMs: number;
  readonly operationTimeoutMs: number;
  /** `user:password` for the `digest` scheme, sent on every (re)connect. */
  readonly digest?: string | undefined;
  /** Told when a reply could not be parsed (the link is then dropped and re-established). */
  readonly onBadReply?: ((error: unknown) => void) | undefined;
}

export type ZkState = "connected" | "disconnected" | "expired" | "auth-failed";

export interface ZkNodeStat {
  /** The owning session id as 16 hex digits, or all zeros for a persistent node. */
  readonly ephemeralOwner: string;
}

export interface ZkNodeData {
  readonly data: Buffer;
  /** The data version, for a compare-and-set `setData`. */
  readonly version: number;
}

/** A ZooKeeper error code, for callers that branch on NODE_EXISTS, NO_NODE or BAD_VERSION. */
export const ZkErrorCode = {
  NO_NODE: zookeeper.Exception.NO_NODE,
  NODE_EXISTS: zookeeper.Exception.NODE_EXISTS,
  BAD_VERSION: zookeeper.Exception.BAD_VERSION,
} as const;

export function zkErrorCode(error: unknown): number | undefined {
  let e: unknown = error;
  while (e instanceof Error || (typeof e === "object" && e !== null)) {
    const code = (e as { code?: unknown }).code;
    const name = (e as { name?: unknown }).name;
    if (typeof code === "number" && typeof name === "string" && name !== "RpcError") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The library's connection internals the handshake watchdog looks at (not part of its typings). */
interface ConnectionInternals {
  readonly state?: number;
  readonly socket?: { readonly connecting?: boolean; readonly destroyed?: boolean; destroy(): void };
  onSocketData?: (buffer: Buffer) => void;
  readonly pendingQueue?: PendingPacket[];
}
interface PendingPacket {
  readonly request: { readonly header: { readonly xid: number; readonly type: number } };
  callback?: (error: unknown, response: { readonly payload: { children: unknown } }) => void;
}
const LIB_STATE_CONNECTING = 1;
const OP_GET_CHILDREN2 = 12;
/** A reply begins with its size, xid (4 bytes each), zxid (8) and error code (4). */
const REPLY_XID_AT = 4;
const REPLY_ERROR_AT = 16;

export class ZkClient {
  readonly #client: zookeeper.Client;
  readonly #options: ZkClientOptions;
  #connected = false;
  #closed = false;
  readonly #stateListeners = new Set<(state: ZkState) => void>();
  #watchdog: NodeJS.Timeout | undefined;

  constructor(options: ZkClientOptions) {
    this.#options = options;
    this.#client = zookeeper.createClient(options.connectString, {
      sessionTimeout: options.sessionTimeoutMs,
      spinDelay: 1000,
      retries: 0,
    });
    if (options.digest !== undefined) this.#client.addAuthInfo("digest", Buffer.from(options.digest));
    this.#guardFrameParsing();
    this.#client.on("connected", () => this.#setState("connected"));
    this.#client.on("connectedReadOnly", () => this.#setState("connected"));
    this.#client.on("disconnected", () => this.#setState("disconnected"));
    this.#client.on("expired", () => this.#setState("expired"));
    this.#client.on("authenticationFailed", () => this.#setState("auth-failed"));
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** The session timeout the server granted (what was asked for until connected). */
  get sessionTimeoutMs(): number {
    return this.#client.getSessionTimeout();
  }

  /** The session id as 16 hex digits (what `ephemeralOwner` holds). */
  get sessionId(): string {
    return this.#client.getSessionId().toString("hex");
  }

  get sessionPassword(): Buffer {
    return this.#client.getSessionPassword();
  }

  onState(listener: (state: ZkState) => void): void {
    this.#stateListeners.add(listener);
  }

  /** Starts connecting; resolves once connected, rejects after `timeoutMs` (the client keeps trying). */
  connect(timeoutMs: number): Promise<void> {
    this.#client.connect();
    this.#startWatchdog();
    if (this.#connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#stateListeners.delete(onState);
        reject(
          new RpcError(
            `could not connect to ZooKeeper ${this.#options.connectString} within ${timeoutMs} ms (registry URL parameter timeout)`,
            Code.Unavailable,
          ),
        );
      }, timeoutMs);
      timer.unref();
      const onState = (state: ZkState): void => {
        if (state === "disconnected") return;
        clearTimeout(timer);
        this.#stateListeners.delete(onState);
        if (state === "connected") resolve();
        else reject(new RpcError(`ZooKeeper ${this.#options.connectString}: ${state}`, Code.Unavailable));
      };
      this.#stateListeners.add(onState);
    });
  }

  close(): void {
    if (this.#closed) return;
    const wasConnected = this.#connected;
    this.#closed = true;
    this.#connected = false;
    clearInterval(this.#watchdog);
    this.#stateListeners.clear();
    this.#client.removeAllListeners();
    // Swallow late library events (a socket error after close must not become an unhandled 'error').
    this.#client.on("error", () => {});
    this.#client.close();
    // Without a live session there is nobody to say goodbye to: stop the library's retry loop
    // (its socket would otherwise keep offering the dead session to the server).
    if (!wasConnected) this.#internals()?.socket?.destroy();
  }

  /** Creates a node (empty unless `data` is given); `ephemeral` nodes die with the session. */
  create(path: string, ephemeral: boolean, data: Buffer = Buffer.alloc(0)): Promise<void> {
    const mode = ephemeral ? zookeeper.CreateMode.EPHEMERAL : zookeeper.CreateMode.PERSISTENT;
    return this.#call(`create ${path}`, (done) => this.#client.create(path, data, mode, done));
  }

  /**
   * The node's data and version, or undefined when it does not exist. With a watcher, the server
   * calls it once when the node changes or is deleted.
   */
  getData(path: string, watcher?: () => void): Promise<ZkNodeData | undefined> {
    return this.#call<ZkNodeData>(`getData ${path}`, (done) => {
      const reply = (error: unknown, data?: Buffer, stat?: zookeeper.Stat): void =>
        done(error, { data: data ?? Buffer.alloc(0), version: stat?.version ?? 0 });
      if (watcher === undefined) this.#client.getData(path, reply);
      else this.#client.getData(path, watcher, reply);
    }).catch((error: unknown) => {
      if (zkErrorCode(error) === zookeeper.Exception.NO_NODE) return undefined;
      throw error;
    });
  }

  /** Replaces the node's data if its version is still `version` (compare-and-set), -1 for any. */
  setData(path: string, data: Buffer, version: number): Promise<void> {
    return this.#call(`setData ${path}`, (done) => this.#client.setData(path, data, version, done));
  }

  /** Creates `path` and its missing parents as persistent nodes; existing ones are fine. */
  mkdirp(path: string): Promise<void> {
    return this.#call(`mkdirp ${path}`, (done) => this.#client.mkdirp(path, done));
  }

  remove(path: string): Promise<void> {
    return this.#call(`remove ${path}`, (done) => this.#client.remove(path, -1, done));
  }

  /** The node's stat, or undefined when it does not exist. */
  async stat(path: string): Promise<ZkNodeStat | undefined> {
    const stat = await this.#call<zookeeper.Stat | undefined>(`exists ${path}`, (done) =>
      this.#client.exists(path, done),
    );
    return stat === undefined || stat === null
      ? undefined
      : { ephemeralOwner: stat.ephemeralOwner.toString("hex") };
  }

  /**
   * Whether `path` exists. With a watcher, the server calls it once when the node is created,
   * deleted or changed: the way to hear about a path that does not exist yet, since a
   * `getChildren` of a missing path leaves no watch behind.
   */
  async exists(path: string, watcher?: () => void): Promise<boolean> {
    const stat = await this.#call<zookeeper.Stat | undefined>(`exists ${path}`, (done) => {
      if (watcher === undefined) this.#client.exists(path, done);
      else this.#client.exists(path, watcher, done);
    });
    return stat !== undefined && stat !== null;
  }

  /** The children of `path` as strings, or undefined when it does not exist (see `readChildren`). */
  async getChildren(path: string): Promise<string[] | undefined> {
    return (await this.readChildren(path))?.toArray();
  }

  /**
   * The children of `path` as the reply's bytes (decoded name by name when asked), or undefined
   * when it does not exist. With a watcher, the server calls it once on the next change (the
   * library de-duplicates one function per path and re-installs pending watches after a
   * reconnect of the same session).
   */
  readChildren(path: string, watcher?: () => void): Promise<ChildNames | undefined> {
    return this.#call<ChildNames | undefined>(`getChildren ${path}`, (done) => {
      if (watcher === undefined) this.#client.getChildren(path, done);
      else this.#client.getChildren(path, watcher, done);
    }).catch((error: unknown) => {
      if (zkErrorCode(error) === zookeeper.Exception.NO_NODE) return undefined;
      throw error;
    });
  }

  /**
   * The library bounds the TCP connect but not the session handshake after it: a server that
   * accepts while still starting and never answers would hold the client forever. A socket stuck
   * in the handshake for two checks in a row is destroyed, and the library moves on to retry.
   */
  #startWatchdog(): void {
    if (this.#watchdog !== undefined) return;
    let suspect: unknown;
    this.#watchdog = setInterval(
      () => {
        const internals = this.#internals();
        const socket = internals?.socket;
        const stuck =
          !this.#connected &&
          internals?.state === LIB_STATE_CONNECTING &&
          socket !== undefined &&
          socket.connecting === false &&
          socket.destroyed !== true;
        if (!stuck) suspect = undefined;
        else if (suspect !== socket) suspect = socket;
        else {
          suspect = undefined;
          socket.destroy();
        }
      },
      Math.min(Math.max(this.#options.operationTimeoutMs, 500), 5000),
    );
    this.#watchdog.unref();
  }

  /**
   * The library parses replies inside the socket's data callback and throws on bytes it does not
   * understand (e.g. "Unknown code" when the address now answers with another protocol, as a
   * ZooKeeper port reused after a restart may). Uncaught, that would end the process; instead the
   * link is dropped and the client reconnects. Installed before `connect()` binds the handler.
   * It also hands the library whole frames (zk-frames.ts), each joined once, except a
   * `getChildren` reply, whose names stay in their socket chunks (see `#keepChildren`).
   */
  #guardFrameParsing(): void {
    const internals = this.#internals();
    const parse = internals?.onSocketData;
    if (internals === undefined || parse === undefined) return;
    const frames = new ZkFrames();
    let socket: unknown;
    internals.onSocketData = (buffer: Buffer) => {
      // Each new socket starts a new byte stream: what the last one left half-received is void.
      if (internals.socket !== socket) {
        socket = internals.socket;
        frames.clear();
      }
      try {
        for (const frame of frames.push(buffer)) parse.call(internals, this.#keepChildren(internals, frame));
      } catch (error) {
        frames.clear();
        this.#options.onBadReply?.(error);
        internals.socket?.destroy();
      }
    };
  }

  /**
   * A successful reply to the `getChildren` at the head of the library's queue reaches its caller
   * as `ChildNames` over the frame's chunks, and the library is handed a frame with no names in
   * it: it would otherwise decode every name into a string (14–15 ms for 10 000 provider nodes)
   * before the watch could tell that one changed. Any other frame passes joined, as it came.
   */
  #keepChildren(internals: ConnectionInternals, frame: ByteChunks): Buffer {
    if (internals.state === LIB_STATE_CONNECTING || frame.length < REPLY_ERROR_AT + 4) return frame.joined();
    const packet = internals.pendingQueue?.[0];
    if (packet === undefined || packet.request.header.type !== OP_GET_CHILDREN2) return frame.joined();
    if (packet.request.header.xid !== frame.readInt32BE(REPLY_XID_AT)) return frame.joined();
    if (frame.readInt32BE(REPLY_ERROR_AT) !== 0) return frame.joined();
    const names = ChildNames.ofReply(frame);
    const deliver = packet.callback;
    packet.callback = (error, response) => {
      if (error === null || error === undefined) response.payload.children = names;
      deliver?.(error, response);
    };
    return withoutNames(frame);
  }

  #internals(): ConnectionInternals | undefined {
    return (this.#client as unknown as { connectionManager?: ConnectionInternals }).connectionManager;
  }

  #setState(state: ZkState): void {
    if (this.#closed) return;
    this.#connected = state === "connected";
    for (const listener of [...this.#stateListeners]) listener(state);
  }

  #call<T = void>(
    what: string,
    start: (done: (error: unknown, result?: unknown) => void) => void,
  ): Promise<T> {
    if (this.#closed || !this.#connected) {
      return Promise.reject(
        new RpcError(`ZooKeeper ${this.#options.connectString} is not connected (${what})`, Code.Unavailable),
      );
    }
    const timeoutMs = this.#options.operationTimeoutMs;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A connected session that stops answering is dead (the library has no read timeout):
        // drop the socket so the library reconnects, or learns that the session expired.
        this.#internals()?.socket?.destroy();
        reject(
          new RpcError(
            `ZooKeeper ${this.#options.connectString} did not answer ${what} within ${timeoutMs} ms (registry URL parameter timeout)`,
            Code.DeadlineExceeded,
          ),
        );
      }, timeoutMs);
      timer.unref();
      start((error, result) => {
        clearTimeout(timer);
        if (error !== null && error !== undefined) {
          reject(
            new RpcError(`ZooKeeper ${what} failed: ${String(error)}`, Code.Unavailable, { cause: error }),
          );
        } else resolve(result as T);
      });
    });
  }
}
