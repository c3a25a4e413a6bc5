import { BizError, Code, type Filter, type FilterExtension, RpcError, type Url } from "../core/index.js";
import type { MonitorEvents } from "./event-stream.js";
import type { CallOutcome, CallSide, CallSite } from "./events.js";

/** Java 3's names for its metrics filters, so `filter="-metrics-provider"` reads the same. */
export const PROVIDER_MONITOR_FILTER = "metrics-provider";
export const CONSUMER_MONITOR_FILTER = "metricsConsumerFilter";

/** The outcome bucket of a failure (Java's `MetricsSupport.getMetricsKey`). */
export function outcomeOf(error: unknown): CallOutcome {
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
 * made per call (one array length read), so with nobody listening the call only pays that.
 */
export function createCallEventFilter(events: MonitorEvents, side: CallSide): Filter {
  return (next, invoker) => {
    const site = siteOf(invoker.url, side);
    const providerAddress = invoker.url.address;
    return (inv) => {
      const started = events.hasListeners("callStarted");
      const finished = events.hasListeners("callFinished");
      if (!started && !finished) return next(inv);
      const method = inv.method;
      const peer = side === "consumer" ? providerAddress : (inv.remoteAddress ?? "unknown");
      if (started) events.emit("callStarted", { site, method, peer });
      if (!finished) return next(inv);
      const t0 = performance.now();
      return next(inv).then(
        (result) => {
          const durationMs = performance.now() - t0;
          events.emit("callFinished", {
            site,
            method,
            peer,
            durationMs,
            outcome: "success",
            code: undefined,
          });
          return result;
        },
        (error: unknown) => {
          const durationMs = performance.now() - t0;
          const code = error instanceof RpcError ? error.code : undefined;
          events.emit("callFinished", { site, method, peer, durationMs, outcome: outcomeOf(error), code });
          throw error;
        },
      );
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
