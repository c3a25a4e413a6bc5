import type { ClientHttp2Session } from "node:http2";
import {
  Code,
  DEFAULT_HEARTBEAT_MS,
  HEARTBEAT_TIMEOUT_FACTOR,
  RpcError,
  type Url,
} from "../../core/index.js";

/**
 * HTTP/2 keepalive of a client connection, as Java 3.3's Triple client does it (its Netty idle
 * handler with `TriplePingPongHandler`): a PING every `heartbeat` ms, and the connection closed
 * when one goes unanswered for `close.timeout` ms, so a provider that stopped answering (a dead
 * host, a half-open link) fails the calls on it at once and the next call connects again.
 */
export interface KeepaliveSetting {
  /** `heartbeat`: ms between two PINGs; 0 sends none. */
  readonly intervalMs: number;
  /** `close.timeout`: ms a PING may stay unanswered before the connection is closed. */
  readonly ackTimeoutMs: number;
}

/**
 * The keepalive of `heartbeat` and `close.timeout` ms (Java's `UrlUtils.getCloseTimeout`: by default
 * `heartbeat.timeout`, which defaults to 3 × heartbeat); `where` names their owner in errors.
 * @throws RpcError (InvalidArgument) when the timeout is under twice the interval, as Java refuses it.
 */
export function keepaliveSetting(
  where: string,
  heartbeatMs = DEFAULT_HEARTBEAT_MS,
  closeTimeoutMs = heartbeatMs * HEARTBEAT_TIMEOUT_FACTOR,
): KeepaliveSetting {
  if (heartbeatMs > 0 && closeTimeoutMs < heartbeatMs * 2) {
    throw new RpcError(
      `${where}: close.timeout (${closeTimeoutMs} ms) must be at least twice heartbeat (${heartbeatMs} ms); ` +
        "raise close.timeout or lower heartbeat",
      Code.InvalidArgument,
    );
  }
  return { intervalMs: heartbeatMs, ackTimeoutMs: closeTimeoutMs };
}

/** The keepalive a reference URL asks for (`heartbeat`, `close.timeout`, `heartbeat.timeout`). */
export function keepaliveOfUrl(url: Url): KeepaliveSetting {
  const heartbeatMs = url.number("heartbeat", DEFAULT_HEARTBEAT_MS);
  const idleTimeoutMs = url.number("heartbeat.timeout", heartbeatMs * HEARTBEAT_TIMEOUT_FACTOR);
  return keepaliveSetting(
    `the tri reference to ${url.serviceInterface} at ${url.address}`,
    heartbeatMs,
    url.number("close.timeout", idleTimeoutMs),
  );
}

/**
 * Pings `session` every interval while it lives; `unanswered` is called (once) with the reason
 * when a PING's ack does not come within the timeout. Returns the stop. Timers are unref'd: an
 * idle connection never keeps the process alive.
 */
export function startKeepalive(
  session: ClientHttp2Session,
  setting: KeepaliveSetting,
  address: string,
  unanswered: (reason: RpcError) => void,
): () => void {
  if (setting.intervalMs <= 0) return () => {};
  let awaitingAck: NodeJS.Timeout | undefined;
  const acked = (): void => {
    clearTimeout(awaitingAck);
    awaitingAck = undefined;
  };
  const interval = setInterval(() => {
    // One PING in flight at a time: its ack timer measures the silence.
    if (awaitingAck !== undefined || session.destroyed || session.closed) return;
    if (!session.ping(acked)) return;
    awaitingAck = setTimeout(() => {
      awaitingAck = undefined;
      unanswered(
        new RpcError(
          `the triple provider at ${address} did not answer a PING within ${setting.ackTimeoutMs} ms ` +
            "(close.timeout); the connection was closed and the next call connects again",
          Code.Unavailable,
        ),
      );
    }, setting.ackTimeoutMs);
    awaitingAck.unref();
  }, setting.intervalMs);
  interval.unref();
  return () => {
    clearInterval(interval);
    acked();
  };
}
