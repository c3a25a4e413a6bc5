import { Code, DEFAULT_CONNECTION_DOUBLE_CHECK_MS, RpcError } from "../core/index.js";
import { type Backoff, type BackoffOptions, createBackoff } from "./backoff.js";
import { consoleLogger, type Logger } from "./logger.js";

/** A link the holder keeps up: the exchange layer's client implements it. */
export interface Connectable {
  /** `host:port` of the peer. */
  readonly address: string;
  readonly isConnected: boolean;
  /** Opens the link, again after a disconnect too. Rejects with an `RpcError` (`Unavailable`). */
  connect(): Promise<void>;
  /** Registers a listener called each time an open link goes down. */
  onDisconnect(listener: (error: Error | undefined) => void): void;
  close(): Promise<void>;
}

/** SOFARPC's connection states: never tried (lazy), up, or down and waiting to retry. */
export type ConnectionState = "uninitialized" | "connecting" | "alive" | "retrying" | "closed";

export interface ManagedConnection<C extends Connectable> {
  readonly address: string;
  readonly state: ConnectionState;
  readonly target: C;
  /** The target when it is up, else undefined; no allocation (for the call path). */
  current(): C | undefined;
  /**
   * The target, up. Uninitialized (lazy): connects first. Connecting: waits for that attempt.
   * Retrying: fails at once with `Unavailable` (the reconnect timer owns the next attempt), so a
   * cluster can pick another provider instead of waiting.
   */
  get(): Promise<C>;
  /**
   * Connects now if not up (cancelling a scheduled retry), then checks the link is still up
   * `doubleCheckMs` later, as SOFARPC does: a peer that accepts and drops at once (its `accepts`
   * limit, a blacklist) is not reachable. Never rejects; resolves whether the link is up.
   */
  establish(): Promise<boolean>;
  /** The last connect failure or disconnect cause. */
  readonly lastError: Error | undefined;
  onStateChange(listener: (state: ConnectionState) => void): void;
  close(): Promise<void>;
}

export interface ManagedConnectionOptions {
  readonly backoff?: BackoffOptions;
  /** `reconnect=false`: a link that drops stays down (no attempt is scheduled). Default true. */
  readonly reconnect?: boolean;
  /** ms a fresh link must stay up to count as healthy. */
  readonly doubleCheckMs?: number;
  readonly logger?: Logger;
}

/** The category of the transport's debug records (`DUBBO_TRACE=transport`). */
const TRANSPORT_LOG = "transport";

/** Failed reconnect attempts are logged at the 1st, 2nd, 4th, 8th…: a long outage stays a few lines. */
function isLoggedAttempt(failures: number): boolean {
  return (failures & (failures - 1)) === 0;
}

/** Keeps one {@link Connectable} up: reconnects every `reconnect` period after it drops (backoff.ts). */
export function createManagedConnection<C extends Connectable>(
  target: C,
  options: ManagedConnectionOptions = {},
): ManagedConnection<C> {
  const doubleCheckMs = options.doubleCheckMs ?? DEFAULT_CONNECTION_DOUBLE_CHECK_MS;
  const logger = options.logger ?? consoleLogger;
  const backoff: Backoff = createBackoff(options.backoff);
  const reconnect = options.reconnect ?? true;
  const listeners: Array<(state: ConnectionState) => void> = [];
  let state: ConnectionState = "uninitialized";
  let attempt: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let nextRetryAt = 0;
  let connectedAt = 0;
  let lastError: Error | undefined;
  /** Failed attempts since the link was last up (for the throttled records). */
  let failures = 0;

  function setState(next: ConnectionState): void {
    if (state === next) return;
    state = next;
    for (const listener of listeners) listener(next);
  }

  function scheduleRetry(): void {
    if (state === "closed" || retryTimer !== undefined || !reconnect) return;
    const delay = backoff.next();
    nextRetryAt = Date.now() + delay;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connectNow().catch(() => {});
    }, delay);
    retryTimer.unref();
  }

  function connectNow(): Promise<void> {
    if (attempt !== undefined) return attempt;
    if (state === "closed") return Promise.reject(closedError());
    if (retryTimer !== undefined) {
      clearTimeout(retryTimer);
      retryTimer = undefined;
    }
    setState("connecting");
    attempt = target.connect().then(
      () => {
        attempt = undefined;
        if (state === "closed") return;
        if (failures > 0) {
          logger.info(`connection to ${target.address} restored after ${failures} failed attempts`);
          failures = 0;
        }
        connectedAt = Date.now();
        // Between connect() resolving and now the link may already have dropped.
        if (target.isConnected) setState("alive");
        else onDown(lastError);
      },
      (error: unknown) => {
        attempt = undefined;
        lastError = RpcError.from(error, Code.Unavailable);
        if (state !== "closed") {
          setState("retrying");
          scheduleRetry();
          failures += 1;
          const next = `reconnect attempt ${failures} failed: ${lastError.message}; next in ${Math.max(0, nextRetryAt - Date.now())} ms`;
          if (isLoggedAttempt(failures)) logger.info(next);
          else logger.debug(TRANSPORT_LOG, next);
        }
        throw lastError;
      },
    );
    return attempt;
  }

  function onDown(error: Error | undefined): void {
    if (state === "closed") return;
    if (error !== undefined) lastError = error;
    if (Date.now() - connectedAt < doubleCheckMs) {
      backoff.penalize();
      logger.warn(
        `the connection to ${target.address} closed right after it opened (within ${doubleCheckMs} ms)` +
          (error === undefined ? "" : ` (${error.message.trim()})`) +
          "; the provider may have reached its `accepts` limit, refuse this host, or want TLS settings this client lacks (`ssl`)",
      );
    } else {
      backoff.reset();
      logger.warn(
        `connection to ${target.address} lost${error === undefined ? "" : ` (${error.message.trim()})`}; reconnecting`,
      );
    }
    setState("retrying");
    scheduleRetry();
  }

  target.onDisconnect((error) => {
    if (state === "alive") onDown(error);
  });

  function closedError(): RpcError {
    return new RpcError(`the connection to ${target.address} was closed by its owner`, Code.Unavailable);
  }

  function unavailable(): RpcError {
    const wait = Math.max(0, nextRetryAt - Date.now());
    const plan = reconnect
      ? `reconnecting, next attempt in ${wait} ms`
      : "not reconnecting (reconnect=false)";
    return new RpcError(
      `no connection to ${target.address}: ${plan}` +
        (lastError ? ` (last error: ${lastError.message})` : ""),
      Code.Unavailable,
      { cause: lastError },
    );
  }

  return {
    address: target.address,
    target,
    get state() {
      return state;
    },
    get lastError() {
      return lastError;
    },
    current() {
      return state === "alive" && target.isConnected ? target : undefined;
    },
    async get() {
      if (state === "alive" && target.isConnected) return target;
      if (state === "uninitialized" || state === "connecting") {
        await connectNow();
        if ((state as ConnectionState) === "alive") return target;
      }
      if (state === "closed") throw closedError();
      throw unavailable();
    },
    async establish() {
      if (state === "closed") return false;
      if (!(state === "alive" && target.isConnected)) {
        try {
          await connectNow();
        } catch {
          return false;
        }
      }
      const settle = connectedAt + doubleCheckMs - Date.now();
      if (settle > 0) await new Promise((resolve) => setTimeout(resolve, settle));
      return state === "alive" && target.isConnected;
    },
    onStateChange(listener) {
      listeners.push(listener);
    },
    async close() {
      if (state === "closed") return;
      setState("closed");
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      retryTimer = undefined;
      await target.close();
    },
  };
}
