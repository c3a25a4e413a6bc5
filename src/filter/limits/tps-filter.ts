import { Code, type Filter, type FilterExtension, RpcError } from "../../core/index.js";

/** Java's DefaultTPSLimiter: `tps.interval` when the URL has none, ms. */
const DEFAULT_TPS_INTERVAL_MS = 60_000;

interface Bucket {
  readonly rate: number;
  readonly intervalMs: number;
  tokens: number;
  refilledAt: number;
}

/**
 * Provider side (Java's TpsLimitFilter): at most `tps` calls to the service per `tps.interval` ms
 * (default 60000), a token bucket refilled whole at each interval. A call beyond is refused with
 * ResourceExhausted until the next interval.
 */
export const tpsFilter: Filter = (next, invoker) => {
  const url = invoker.url;
  const rate = url.number("tps", -1);
  if (rate < 0) return next;
  const bucket: Bucket = {
    rate,
    intervalMs: url.number("tps.interval", DEFAULT_TPS_INTERVAL_MS),
    tokens: rate,
    refilledAt: Date.now(),
  };
  return (inv) => {
    const now = Date.now();
    if (now - bucket.refilledAt >= bucket.intervalMs) {
      bucket.tokens = bucket.rate;
      bucket.refilledAt = now;
    }
    if (bucket.tokens <= 0) {
      return Promise.reject(
        new RpcError(
          `${url.serviceKey}.${inv.method} at ${url.address} was refused: the service allows tps=${bucket.rate} calls ` +
            `per ${bucket.intervalMs} ms (tps.interval), next refill in ${bucket.intervalMs - (now - bucket.refilledAt)} ms`,
          Code.ResourceExhausted,
        ),
      );
    }
    bucket.tokens--;
    return next(inv);
  };
};

export const tpsFilterExtension: FilterExtension = Object.freeze({
  filter: tpsFilter,
  activate: Object.freeze({ side: "provider", keys: Object.freeze(["tps"]) }),
});
