import type { ThreadPoolSizes } from "../protocol/shared/index.js";

/** Which end of a call an event describes. */
export type CallSide = "consumer" | "provider";

/**
 * What a call is counted under: fixed per invoker, computed once when its filter chain is built,
 * so a call's events carry a shared object instead of five strings.
 */
export interface CallSite {
  readonly side: CallSide;
  readonly application: string;
  readonly service: string;
  readonly group: string;
  readonly version: string;
}

/**
 * How a call ended, in the buckets of Java Dubbo 3's metrics (`MetricsSupport.getMetricsKey`):
 * a provider's own exception, a timed-out attempt, a limit (`executes`, `actives`, `tps`, an
 * exhausted pool), a network or codec failure, or anything else.
 */
export type CallOutcome = "success" | "business" | "timeout" | "limit" | "network" | "codec" | "unknown";

export interface CallStarted {
  readonly site: CallSite;
  readonly method: string;
  /** The other end's `host:port`: the provider for a consumer, the caller for a provider. */
  readonly peer: string;
}

export interface CallFinished extends CallStarted {
  readonly durationMs: number;
  readonly outcome: CallOutcome;
  /** The failure's `RpcError` code (gRPC numbering); undefined on success and for business errors. */
  readonly code: number | undefined;
}

export interface ConnectionChanged {
  /** The other end's `host:port`. */
  readonly peer: string;
  /** `client`: our link to a provider; `server`: a caller's link to us. */
  readonly role: "client" | "server";
}

export interface ThreadPoolSaturated {
  /** The server's `host:port` whose pool refused a request (answered SERVER_THREADPOOL_EXHAUSTED). */
  readonly server: string;
  readonly active: number;
  readonly queued: number;
}

export interface RegistryNotified {
  /** The registry's `host:port`. */
  readonly registry: string;
  readonly service: string;
  /** `providers`, `configurators`, `routers`, … */
  readonly category: string;
  /** URLs in the notified list; 0 when it was cleared (`empty://`). */
  readonly urls: number;
}

export interface RegistryOperated {
  /** The registry's `host:port` (Java labels its registry metrics with the registry cluster). */
  readonly registry: string;
  /**
   * `registerService`: a provider's interface-level URL written (Java's `RegistryProtocol.register`);
   * `registerInstance`: the application's instance written under `/services/{app}` (Java's
   * `registerMetadataAndInstance`); `subscribe`: a reference's interface-level providers
   * subscription (Java's `RegistryDirectory.subscribe`); `subscribeService`: its
   * application-level one (Java's `ServiceDiscoveryRegistry.subscribeURLs`).
   */
  readonly operation: "registerService" | "registerInstance" | "subscribe" | "subscribeService";
  /**
   * The interface (the service key for `subscribeService`, as Java labels it); the application's
   * name for `registerInstance`.
   */
  readonly service: string;
  readonly succeeded: boolean;
}

interface ThreadPoolChanged {
  /** The server's `host:port` whose requests the pool admits. */
  readonly server: string;
  /** Its live sizes, read when a reader samples them (a metrics scrape), never per call. */
  readonly pool: ThreadPoolSizes;
}

/** Every event of an application's monitor stream, by type. */
export interface MonitorEventMap {
  readonly callStarted: CallStarted;
  readonly callFinished: CallFinished;
  readonly registryNotified: RegistryNotified;
  readonly connectionUp: ConnectionChanged;
  readonly connectionDown: ConnectionChanged;
  readonly threadPoolSaturated: ThreadPoolSaturated;
  readonly registryOperated: RegistryOperated;
  readonly threadPoolOpened: ThreadPoolChanged;
  readonly threadPoolClosed: ThreadPoolChanged;
}

export type MonitorEventType = keyof MonitorEventMap;
