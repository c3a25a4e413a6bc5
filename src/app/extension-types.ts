import type { Cluster, LoadBalanceFactory, Merger, RouterFactory } from "../cluster/index.js";
import type {
  DeadlineTimers,
  ExtensionPlugin,
  ExtensionPoint,
  FilterExtension,
  Logger,
  Protocol,
  RpcStatusTable,
} from "../core/index.js";
import type { MonitorEvents } from "../monitor/index.js";
import type { Dispatcher, ThreadModel, ThreadPool } from "../protocol/shared/index.js";
import type { RegistryExtension } from "../registry/index.js";
import type { Serialization } from "../serialize/index.js";

/** What a protocol factory receives from its application. */
export interface ProtocolContext {
  readonly rpcStatus: RpcStatusTable;
  /** The application's one set of deadline timers: every protocol's attempt timeouts run on it. */
  readonly deadlines: DeadlineTimers;
  readonly logger: AppLogger;
  /** The application's thread pools and dispatchers, which a server looks up once, at its first export. */
  readonly threadModel: ThreadModel;
  /** The application's serializations: a protocol writes by a URL's `serialization` and reads by a body's id. */
  readonly serializations: ExtensionPoint<Serialization>;
}

/** Creates one protocol instance per application, the first time a service or reference uses it. */
export type ProtocolFactory = (context: ProtocolContext) => Protocol;

/** Where the application reports what nobody awaits (swallowed failsafe errors, retries, dropped links). */
export type AppLogger = Logger;

/**
 * Every extension point of one application (Dubbo's SPI, without globals), filled by plugins:
 * the built-in ones, then those given to `createDubbo({ plugins })`.
 */
export interface Extensions {
  readonly protocol: ExtensionPoint<ProtocolFactory>;
  readonly filter: ExtensionPoint<FilterExtension>;
  readonly cluster: ExtensionPoint<Cluster>;
  readonly loadBalance: ExtensionPoint<LoadBalanceFactory>;
  readonly router: ExtensionPoint<RouterFactory>;
  readonly merger: ExtensionPoint<Merger>;
  /** Registry types by address protocol (`zookeeper`, `dubbo`). */
  readonly registry: ExtensionPoint<RegistryExtension>;
  /** Request executors by `threadpool` name (`fixed`, `cached`, …), built once per provider server. */
  readonly threadPool: ExtensionPoint<ThreadPool>;
  /** Which requests go through the thread pool, by `dispatcher` name (`all`, `direct`, …). */
  readonly dispatcher: ExtensionPoint<Dispatcher>;
  /** Body serializations by `serialization` name (`hessian2`, `fastjson`); each has its frame-header id. */
  readonly serialization: ExtensionPoint<Serialization>;
  /** Consumer-side call statistics shared by leastactive, shortestresponse and the actives filter. */
  readonly rpcStatus: RpcStatusTable;
  /** The application's monitor stream: subscribe to its call events (`monitor.on("callFinished", …)`). */
  readonly monitor: MonitorEvents;
  /** The application's logger, for extensions that report (the access log writes to it). */
  readonly logger: Logger;
}

/**
 * A plugin registers its extensions into an application's points and checks its own settings
 * (a registry type's `validate`), e.g.
 * `{ name: "etcd", register: (points) => points.registry.register("etcd", etcdRegistryType) }`.
 */
export type Plugin = ExtensionPlugin<Extensions>;
