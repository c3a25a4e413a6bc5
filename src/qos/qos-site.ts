import type { JavaType, LogLevel } from "../core/index.js";

/** A service the application provides, as `ls` shows it. */
export interface QosProvider {
  /** `group/interface:version`. */
  readonly serviceKey: string;
  /** Whether it is registered in a registry now (`offline` unregisters it). */
  readonly registered: boolean;
}

/** One provided method's counts, as `count` shows them. */
export interface QosMethodCount {
  readonly method: string;
  readonly total: number;
  readonly failed: number;
  readonly active: number;
  readonly averageMs: number;
  readonly maxMs: number;
}

/** One method `invoke` may mean: a contract entry, with its Java name and parameter types. */
export interface QosMethodChoice {
  /** The contract's entry key (an overload's own key). */
  readonly key: string;
  readonly javaName: string;
  readonly parameterTypes: readonly JavaType[];
}

/** What `invoke` and `count` found for a service name (simple or full interface name, or service key). */
export type QosLookup<T> =
  | { readonly found: "service"; readonly service: string; readonly value: T }
  | { readonly found: "no service" }
  | { readonly found: "no method" /** The interface. */; readonly service: string };

/** One configuration entry, as `getConfig` prints it. */
export interface QosConfigEntry {
  /** Java's class name for it: `ApplicationConfig`, `ProtocolConfig`, `ServiceConfig`, … */
  readonly type: string;
  readonly id: string;
  /** The resolved settings, JSON-ready (no functions, passwords masked). */
  readonly settings: unknown;
}

/**
 * What the QoS commands read and change in their application; the application implements it,
 * so this layer needs nothing above it.
 */
export interface QosSite {
  /** The framework's version, as `version` prints it. */
  readonly version: string;
  providers(): QosProvider[];
  /** Service keys of the references. */
  consumers(): string[];
  /** The servers' `protocol://host:port`, one per port (`ps -l`). */
  servedUrls(): string[];
  /**
   * Unregisters (`online = false`) or registers again every provided service whose service key
   * or interface matches the regular expression; false when none matched.
   */
  setOnline(pattern: string, online: boolean): Promise<boolean>;
  /** Started and not stopping: `ready` / `startup`. */
  isReady(): boolean;
  /** The resolved configuration, entry by entry. */
  configs(): QosConfigEntry[];
  /** Prometheus text of the application's metrics. */
  metricsText(): string;
  /**
   * The methods of a provided service that `invoke service.name(…)` with `argCount` arguments may
   * mean: those whose Java name (or entry key) is `name` and that take that many parameters.
   */
  methods(service: string, name: string, argCount: number): QosLookup<QosMethodChoice[]>;
  /** Calls a provided method (by entry key) with JSON arguments (as Java, without the provider filters' RPC). */
  invoke(
    service: string,
    method: string,
    args: unknown[],
  ): Promise<QosLookup<{ readonly value: unknown; readonly elapsedMs: number }>>;
  /** Switches the application's log level; false when its logger is not one dubbo-ts made. */
  setLogLevel(level: LogLevel): boolean;
  /** The provider-side counts of a service's methods (one method when named). */
  count(service: string, method: string | undefined): QosLookup<QosMethodCount[]>;
}
