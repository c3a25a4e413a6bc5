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
import { listenerFilter } from "../filter/index.js";
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

/** What one call-event filter emits, for one invoker. */
function callEvents(events: MonitorEvents, side: CallSide, url: Url) {
  const site = siteOf(url, side);
  const providerAddress = url.address;
  const peerOf = (inv: Invocation) =>
    side === "consumer" ? providerAddress : (inv.remoteAddress ?? "unknown");
  return {
    started(inv: Invocation): void {
      if (events.hasListeners("callStarted"))
        events.emit("callStarted", { site, method: inv.method, peer: peerOf(inv) });
    },
    finished(inv: Invocation, t0: number, error: unknown, failed: boolean): void {
      const durationMs = performance.now() - t0;
      const { method } = inv;
      const peer = peerOf(inv);
      if (!failed) {
        events.emit("callFinished", { site, method, peer, durationMs, outcome: "success", code: undefined });
        return;
      }
      const code = error instanceof RpcError ? error.code : undefined;
      events.emit("callFinished", { site, method, peer, durationMs, outcome: outcomeOf(error), code });
    },
  };
}

/**
 * Emits `callStarted` / `callFinished` for each call through the chain. The listener check is
 * made per call (an array length read each), so with nobody listening the call pays only that
 * and builds no event. On the provider it is a plain filter (between plain ones there, where a
 * listener would be a promise step of its own); on the consumer a listener, sharing the step the
 * consumer chain starts with (the context filter's, and the cluster's attempt outcome).
 */
export function createCallEventFilter(events: MonitorEvents, side: CallSide): Filter {
  if (side === "consumer") {
    return listenerFilter((invoker) => {
      const emit = callEvents(events, side, invoker.url);
      return {
        begin(inv) {
          emit.started(inv);
          return events.hasListeners("callFinished") ? performance.now() : undefined;
        },
        onResponse(result, inv, _startedAt, t0) {
          if (t0 !== undefined) emit.finished(inv, t0 as number, undefined, false);
          return result;
        },
        onError(error, inv, _startedAt, t0): never {
          if (t0 !== undefined) emit.finished(inv, t0 as number, error, true);
          throw error;
        },
      };
    });
  }
  return (next, invoker) => {
    const emit = callEvents(events, side, invoker.url);
    // An async function awaiting the call costs a fraction of a `.then` pair on the hot path.
    const observe = async (inv: Invocation): Promise<RpcResult> => {
      const t0 = performance.now();
      try {
        const result = await next(inv);
        emit.finished(inv, t0, undefined, false);
        return result;
      } catch (error) {
        emit.finished(inv, t0, error, true);
        throw error;
      }
    };
    return (inv) => {
      emit.started(inv);
      return events.hasListeners("callFinished") ? observe(inv) : next(inv);
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
