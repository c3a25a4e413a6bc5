import {
  BizError,
  Code,
  type Filter,
  type FilterExtension,
  type Invocation,
  RpcError,
  type RpcResult,
  type Url,
} from "../core/index.js";
import type { MonitorEvents } from "./event-stream.js";
import type { CallOutcome, CallSide, CallSite } from "./events.js";

/** Java 3's names for its metrics filters, so `filter="-metrics-provider"` reads the same. */
const PROVIDER_MONITOR_FILTER = "metrics-provider";
const CONSUMER_MONITOR_FILTER = "metricsConsumerFilter";

/** The outcome bucket of a failure (Java's `MetricsSupport.getMetricsKey`). */
function outcomeOf(error: unknown): CallOutcome {
  if (error instanceof BizError || !(error instanceof RpcError)) return "business";
  switch (error.code) {
    case Code.DeadlineExceeded:
      return "timeout";
    case Code.ResourceExhausted:
      return "limit";
    case Code.Unavailable:
      return "network";
    case Code.DataLoss:
      return "codec";
    default:
      return "unknown";
  }
}

function siteOf(url: Url, side: CallSide): CallSite {
  return Object.freeze({
    side,
    application: url.get("application") ?? "",
    service: url.serviceInterface,
    group: url.get("group") ?? "",
    version: url.get("version") ?? "",
  });
}

/**
 * Emits `callStarted` / `callFinished` for each call through the chain. The listener check is
 * made per call (an array length read each), so with nobody listening the call pays only that
 * and builds no event.
 */
export function createCallEventFilter(events: MonitorEvents, side: CallSide): Filter {
  return (next, invoker) => {
    const site = siteOf(invoker.url, side);
    const providerAddress = invoker.url.address;
    const peerOf = (inv: Invocation) =>
      side === "consumer" ? providerAddress : (inv.remoteAddress ?? "unknown");
    // An async function awaiting the call costs a fraction of a `.then` pair on the hot path.
    const observe = async (inv: Invocation, started: boolean): Promise<RpcResult> => {
      const method = inv.method;
      const peer = peerOf(inv);
      if (started) events.emit("callStarted", { site, method, peer });
      const t0 = performance.now();
      try {
        const result = await next(inv);
        const durationMs = performance.now() - t0;
        events.emit("callFinished", { site, method, peer, durationMs, outcome: "success", code: undefined });
        return result;
      } catch (error) {
        const durationMs = performance.now() - t0;
        const code = error instanceof RpcError ? error.code : undefined;
        events.emit("callFinished", { site, method, peer, durationMs, outcome: outcomeOf(error), code });
        throw error;
      }
    };
    return (inv) => {
      const started = events.hasListeners("callStarted");
      if (events.hasListeners("callFinished")) return observe(inv, started);
      if (started) events.emit("callStarted", { site, method: inv.method, peer: peerOf(inv) });
      return next(inv);
    };
  };
}

/**
 * The two call-event filters of an application, by name, with Java's activation: outermost on the
 * provider (after `echo`), and on every consumer call to a provider.
 */
export function callEventFilterExtensions(
  events: MonitorEvents,
): ReadonlyArray<readonly [string, FilterExtension]> {
  return [
    [
      PROVIDER_MONITOR_FILTER,
      { filter: createCallEventFilter(events, "provider"), activate: { side: "provider", order: -100000 } },
    ],
    [
      CONSUMER_MONITOR_FILTER,
      { filter: createCallEventFilter(events, "consumer"), activate: { side: "consumer", order: -20000 } },
    ],
  ];
}
