import type { Attachments, Invocation, Invoker, RpcStatusTable, Url } from "../core/index.js";

/**
 * Why a provider the directory knows was not a candidate for a call; the no-provider error lists
 * every provider with its reason.
 */
export type ExclusionReason =
  | { readonly kind: "router"; readonly router: string }
  /** A router threw, so (as in Java) no provider was routed; `detail` is its error message. */
  | { readonly kind: "routerFailed"; readonly router: string; readonly detail: string }
  | { readonly kind: "unavailable" }
  | { readonly kind: "tried" }
  | { readonly kind: "disabled"; readonly detail?: string }
  | { readonly kind: "mismatch"; readonly detail: string };

/**
 * A provider of the same interface that the reference did not match because its group, version
 * or classifier differ: the usual cause of "no provider available".
 */
export interface NearMiss {
  readonly address: string;
  readonly group: string | undefined;
  readonly version: string | undefined;
}

/**
 * The providers of one service as the cluster sees them. `list` applies the router chain to the
 * current immutable snapshot; implementations swap the snapshot on change and never mutate it.
 */
export interface Directory {
  /** The consumer's URL (reference settings). */
  readonly url: Url;
  /** Candidates for this invocation, routers applied. */
  list(inv: Invocation): readonly Invoker[];
  /** Every provider currently known, before routing. */
  all(): readonly Invoker[];
  /** Providers known to the directory but not usable at all, with the reason (disabled, mismatch). */
  excluded(): ReadonlyMap<string, ExclusionReason>;
  /**
   * Why each known provider is not a candidate for this invocation (routers, then `excluded()`),
   * keyed by `host:port`. Only the no-provider error path calls it, so it may re-run the chain.
   */
  explain?(inv: Invocation): ReadonlyMap<string, ExclusionReason>;
  /**
   * Providers of the same interface registered under another group or version, when the
   * directory knows no provider of its own (registry directories); for the no-provider error.
   */
  nearMisses?(): readonly NearMiss[];
  isAvailable(): boolean;
  destroy(): Promise<void>;
}

/** Picks one invoker among candidates. Stateless balancers may be shared; stateful ones are per service. */
export interface LoadBalance {
  select(invokers: readonly Invoker[], url: Url, inv: Invocation): Invoker;
}

/**
 * What a balancer may base its choice on, the same sources the built-ins use: the application's
 * randomness, its clock and its consumer-side call statistics (the cluster counts every provider
 * call in `rpcStatus`, so `rpcStatus.of(url, method).active` is the calls in flight right now).
 */
export interface LoadBalanceContext {
  /** Returns [0, 1); seeded in tests. */
  random(): number;
  /** Ms since the epoch; warm-up weights are computed against it. */
  now(): number;
  readonly rpcStatus: RpcStatusTable;
}

/**
 * Creates a balancer; called once per cluster invoker and balancer name (a balancer may keep
 * state, as round robin does).
 */
export type LoadBalanceFactory = (context: LoadBalanceContext) => LoadBalance;

/** One router of the chain. Lower `priority` runs first. */
export interface Router {
  readonly name: string;
  readonly priority: number;
  /** The rule's URL (`condition://…`, `route://…`), when the router came from one. */
  readonly url: Url | undefined;
  route(invokers: readonly Invoker[], consumerUrl: Url, inv: Invocation): readonly Invoker[];
  /** Called when the provider list changes, for routers that precompute (tag, mock). */
  notify?(invokers: readonly Invoker[]): void;
}

export type RouterFactory = (ruleUrl: Url) => Router;

/** Turns a directory into one invoker with a fault-tolerance strategy (failover, failfast, …). */
export type Cluster = (directory: Directory, context: ClusterContext) => Invoker;

/** What a cluster invoker needs from its application: capabilities, not globals. */
export interface ClusterContext {
  /** Looks up a balancer by name (unknown names throw, listing what is registered). */
  loadBalance(name: string): LoadBalanceFactory;
  /** Logs a warning (failsafe, failback and friends report what they swallowed). */
  warn(message: string, error?: unknown): void;
  /** The randomness source; seeded in tests. Returns [0, 1). */
  random(): number;
  /** The clock the balancers weigh warm-up against; `Date.now` when absent (fixed in tests). */
  now?(): number;
  /**
   * The caller's implicit attachments (RpcContext) to bind into the invocation before selection;
   * they never override what the invocation already carries.
   */
  contextAttachments?(): Attachments | undefined;
  /** Consumer-side call statistics; the cluster counts every provider call in it when present. */
  readonly rpcStatus?: RpcStatusTable;
  /**
   * The mock implementation for `mock=true|default` (`default` asks for the interface's own mock,
   * Java's `<Interface>Mock`) or `mock=<name>`; undefined when none is registered.
   */
  mockImplementation?(serviceInterface: string, name: string): MockImplementation | undefined;
}

/** A local stand-in for a service: method name → function (may be async). */
export type MockImplementation = Readonly<Record<string, (...args: unknown[]) => unknown>>;

/**
 * Invocation attachment the mock wrapper sets when it lists providers for a mock call; the
 * mock-invokers router then returns only `mock://` providers (Java's `invocation.need.mock`).
 */
export const INVOCATION_NEED_MOCK = "invocation.need.mock";
