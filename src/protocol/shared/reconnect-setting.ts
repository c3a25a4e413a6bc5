import { Code, DEFAULT_RECONNECT_PERIOD_MS, RpcError, type Url } from "../../core/index.js";

export interface ReconnectSetting {
  readonly reconnect: boolean;
  /** ms between two attempts to reconnect a dropped link. */
  readonly periodMs: number;
}

/**
 * The reference's `reconnect`: a period in ms (Dubbo 2.6's meaning, default 2000), `true` for the
 * default period, `false` to leave a dropped link down. Java 2.7.23 reads the key as a boolean
 * only (docs/reconnect.md says how we differ).
 */
export function reconnectSettingOf(url: Url): ReconnectSetting {
  const value = url.get("reconnect")?.trim().toLowerCase();
  if (value === undefined || value === "" || value === "true") {
    return { reconnect: true, periodMs: DEFAULT_RECONNECT_PERIOD_MS };
  }
  if (value === "false") return { reconnect: false, periodMs: DEFAULT_RECONNECT_PERIOD_MS };
  const periodMs = Number(value);
  if (!Number.isInteger(periodMs) || periodMs <= 0) {
    throw new RpcError(
      `reconnect=${url.get("reconnect")} on ${url.serviceInterface} at ${url.address} is not a reconnect period: ` +
        "give the ms between attempts (e.g. reconnect=2000), true for the default 2000 ms, or false never to reconnect",
      Code.InvalidArgument,
    );
  }
  return { reconnect: true, periodMs };
}
