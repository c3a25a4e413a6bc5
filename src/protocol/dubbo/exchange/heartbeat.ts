import { Code, DEFAULT_HEARTBEAT_MS, HEARTBEAT_TIMEOUT_FACTOR, RpcError } from "../../../core/index.js";
import type { Channel, Logger } from "../../../transport/index.js";

export interface HeartbeatOptions {
  /** `heartbeat`: ms of idle link (no read or no write) before a heartbeat is sent; 0 sends none. */
  readonly heartbeatMs?: number;
  /** `heartbeat.timeout`: ms without reading anything before the link is closed (default 3 × heartbeat). */
  readonly heartbeatTimeoutMs?: number;
}

export interface HeartbeatTimer {
  stop(): void;
}

/** Java's check rate: a third of the period, so an idle link is seen within 4/3 of it. */
const CHECKS_PER_PERIOD = 3;
/** Java floors the tick at 1000 ms; a lower floor lets tests use short periods. */
const LEAST_TICK_MS = 5;

export function resolveHeartbeat(options: HeartbeatOptions): { heartbeatMs: number; idleTimeoutMs: number } {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const idleTimeoutMs = options.heartbeatTimeoutMs ?? heartbeatMs * HEARTBEAT_TIMEOUT_FACTOR;
  if (heartbeatMs > 0 && idleTimeoutMs < heartbeatMs * 2) {
    throw new RpcError(
      `heartbeat.timeout (${idleTimeoutMs} ms) must be at least twice heartbeat (${heartbeatMs} ms)`,
      Code.InvalidArgument,
    );
  }
  return { heartbeatMs, idleTimeoutMs };
}

/**
 * Watches one link: sends a heartbeat (through `beat`) when it has not read or not written for
 * `heartbeatMs`, and closes it when nothing was read for the idle timeout, so a half-open link is
 * noticed and the owner reconnects. One unref'd interval per link.
 */
export function createHeartbeat(
  channel: Channel,
  options: HeartbeatOptions,
  logger: Logger,
  beat: ((channel: Channel) => void) | undefined,
): HeartbeatTimer {
  const { heartbeatMs, idleTimeoutMs } = resolveHeartbeat(options);
  const period =
    beat === undefined || heartbeatMs <= 0 ? idleTimeoutMs : Math.min(heartbeatMs, idleTimeoutMs);
  if (period <= 0) return { stop() {} };
  const tick = Math.max(LEAST_TICK_MS, Math.floor(period / CHECKS_PER_PERIOD));
  const timer = setInterval(() => {
    if (!channel.isConnected) return;
    const now = Date.now();
    if (idleTimeoutMs > 0 && now - channel.lastReadAt > idleTimeoutMs) {
      logger.warn(
        `closing the link to ${channel.remoteAddress}: nothing read for ${now - channel.lastReadAt} ms ` +
          `(heartbeat timeout ${idleTimeoutMs} ms, set \`heartbeat.timeout\`)`,
      );
      channel.destroy(
        new RpcError(
          `no data from ${channel.remoteAddress} for ${idleTimeoutMs} ms (heartbeat timeout)`,
          Code.Unavailable,
        ),
      );
      return;
    }
    if (
      beat !== undefined &&
      heartbeatMs > 0 &&
      (now - channel.lastReadAt > heartbeatMs || now - channel.lastWriteAt > heartbeatMs)
    ) {
      try {
        beat(channel);
      } catch (error) {
        logger.warn(`heartbeat to ${channel.remoteAddress} failed: ${(error as Error).message}`);
      }
    }
  }, tick);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
