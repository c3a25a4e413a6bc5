import {
  DEFAULT_LOADBALANCE,
  DEFAULT_WARMUP_MS,
  DEFAULT_WEIGHT,
  type Invoker,
  type Url,
} from "../../core/index.js";

/**
 * Java's warm-up ramp: a provider `uptime` ms old out of `warmup` gets
 * `(int)(uptime / (warmup / weight))` in float arithmetic, at least 1 and at most `weight`.
 */
export function warmupWeight(uptimeMs: number, warmupMs: number, weight: number): number {
  const ramped = Math.trunc(Math.fround(Math.fround(uptimeMs) / Math.fround(warmupMs / weight)));
  return ramped < 1 ? 1 : Math.min(ramped, weight);
}

/** A provider's weight settings for one method, as its URL states them. */
interface WeightSettings {
  readonly weight: number;
  readonly timestamp: number;
  readonly warmup: number;
}

/**
 * Weight settings by provider URL, then method: a URL never changes, so its settings are read once
 * (not per invoker per call), and a provider whose URL changes gets a new `Url` and new settings.
 */
const settingsByUrl = new WeakMap<Url, Map<string, WeightSettings>>();

function weightSettings(url: Url, method: string): WeightSettings {
  let byMethod = settingsByUrl.get(url);
  if (byMethod === undefined) {
    byMethod = new Map();
    settingsByUrl.set(url, byMethod);
  }
  let settings = byMethod.get(method);
  if (settings === undefined) {
    settings = Object.freeze({
      weight: url.methodNumber(method, "weight", DEFAULT_WEIGHT),
      timestamp: url.number("timestamp", 0),
      warmup: url.number("warmup", DEFAULT_WARMUP_MS),
    });
    byMethod.set(method, settings);
  }
  return settings;
}

/**
 * A provider's weight for a method as Java computes it: `weight` (per method first, default 100),
 * ramped by `warmup` from the provider's `timestamp`; 1 when the clock says the provider starts in
 * the future; never negative.
 */
export function weightOf(invoker: Invoker, method: string, now = Date.now()): number {
  const { weight: configured, timestamp, warmup } = weightSettings(invoker.url, method);
  let weight = configured;
  if (weight > 0 && timestamp > 0) {
    const uptime = now - timestamp;
    if (uptime < 0) return 1;
    if (uptime > 0 && uptime < warmup) weight = warmupWeight(uptime, warmup, weight);
  }
  return Math.max(Math.trunc(weight), 0);
}

/**
 * The balancer name for a method: the consumer's setting (per method, then the reference), then the
 * provider's, then `random`. Cluster invokers cache it per method.
 */
export function loadBalanceName(consumerUrl: Url, method: string, providerUrl?: Url): string {
  const own = consumerUrl.methodGet(method, "loadbalance");
  if (own !== undefined && own !== "") return own;
  const provider = providerUrl?.methodGet(method, "loadbalance");
  return provider !== undefined && provider !== "" ? provider : DEFAULT_LOADBALANCE;
}

/** A random integer in [0, bound) from a [0, 1) source. */
export function randomInt(random: () => number, bound: number): number {
  return Math.min(bound - 1, Math.floor(random() * bound));
}
