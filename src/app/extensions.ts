import {
  type Cluster,
  createMergeableCluster,
  type LoadBalanceFactory,
  MERGEABLE_CLUSTER,
  type Merger,
  type RouterFactory,
  registerBuiltinClusters,
  registerBuiltinMergers,
  registerBuiltinRouters,
} from "../cluster/index.js";
import {
  consoleLogger,
  DEFAULT_CLUSTER,
  DEFAULT_LOADBALANCE,
  type DeadlineTimers,
  ExtensionPoint,
  type FilterExtension,
  type Logger,
  type Protocol,
  RpcStatusTable,
} from "../core/index.js";
import { createFilterExtensionPoint } from "../filter/index.js";
import {
  activesFilterExtension,
  executesFilterExtension,
  tpsFilterExtension,
} from "../filter/limits/index.js";
import { createAccessLogFilter, createTimeoutFilter } from "../filter/observe/index.js";
import {
  callEventFilterExtensions,
  MonitorEvents,
  monitorObserver,
  tracingFilterExtensions,
} from "../monitor/index.js";
import { createDubboProtocol } from "../protocol/dubbo/index.js";
import { createInjvmProtocol, INJVM_PROTOCOL } from "../protocol/injvm/index.js";
import { createTripleProtocol, TRIPLE_PROTOCOL } from "../protocol/triple/index.js";
import { dubboRegistryFactory } from "../registry/dubbo/index.js";
import {
  createRegistryFactories,
  type RegistryFactory,
  zookeeperRegistryFactory,
} from "../registry/index.js";

/** What a protocol factory receives from its application. */
export interface ProtocolContext {
  readonly rpcStatus: RpcStatusTable;
  /** The application's one set of deadline timers: every protocol's attempt timeouts run on it. */
  readonly deadlines: DeadlineTimers;
  readonly logger: AppLogger;
}

/** Creates one protocol instance per application, the first time a service or reference uses it. */
export type ProtocolFactory = (context: ProtocolContext) => Protocol;

/**
 * Every extension point of one application (Dubbo's SPI, without globals): register your own
 * with `app.extensions.loadBalance.register("mine", factory)` before exporting or referring.
 */
/** Where the application reports what nobody awaits (swallowed failsafe errors, retries, dropped links). */
export type AppLogger = Logger;

export interface Extensions {
  readonly protocol: ExtensionPoint<ProtocolFactory>;
  readonly filter: ExtensionPoint<FilterExtension>;
  readonly cluster: ExtensionPoint<Cluster>;
  readonly loadBalance: ExtensionPoint<LoadBalanceFactory>;
  readonly router: ExtensionPoint<RouterFactory>;
  readonly merger: ExtensionPoint<Merger>;
  /** Registry factories by address protocol (`zookeeper`, `dubbo`). */
  readonly registry: ExtensionPoint<RegistryFactory>;
  /** Consumer-side call statistics shared by leastactive, shortestresponse and the actives filter. */
  readonly rpcStatus: RpcStatusTable;
  /** The application's monitor stream: subscribe to its call events (`monitor.on("callFinished", …)`). */
  readonly monitor: MonitorEvents;
}

export interface ExtensionsOptions {
  /** Randomness for the balancers; seed it in tests. */
  readonly random?: () => number;
  /** Where the built-in observing filters (access log, timeout overrun) write. */
  readonly logger?: Logger;
}

/** A fresh set of extension points holding the built-in extensions. */
export function createExtensions(options: ExtensionsOptions = {}): Extensions {
  const rpcStatus = new RpcStatusTable();
  const monitor = new MonitorEvents(options.logger ?? consoleLogger);
  const extensions: Extensions = {
    protocol: new ExtensionPoint<ProtocolFactory>("protocol", "dubbo"),
    filter: createFilterExtensionPoint(),
    cluster: new ExtensionPoint<Cluster>("cluster", DEFAULT_CLUSTER),
    loadBalance: new ExtensionPoint<LoadBalanceFactory>("loadbalance", DEFAULT_LOADBALANCE),
    router: new ExtensionPoint<RouterFactory>("router"),
    merger: new ExtensionPoint<Merger>("merger"),
    registry: createRegistryFactories([
      ["zookeeper", zookeeperRegistryFactory],
      ["dubbo", dubboRegistryFactory],
    ]),
    rpcStatus,
    monitor,
  };
  extensions.protocol.register(INJVM_PROTOCOL, (context) =>
    createInjvmProtocol({ deadlines: context.deadlines }),
  );
  extensions.protocol.register("dubbo", (context) =>
    createDubboProtocol({
      logger: context.logger,
      observer: monitorObserver(monitor),
      deadlines: context.deadlines,
    }),
  );
  extensions.protocol.register(TRIPLE_PROTOCOL, (context) =>
    createTripleProtocol({ logger: context.logger }),
  );
  extensions.filter
    .register("executes", executesFilterExtension)
    .register("actives", activesFilterExtension)
    .register("tps", tpsFilterExtension)
    .register("accesslog", createAccessLogFilter({ logger: options.logger }))
    .register("timeout", createTimeoutFilter({ logger: options.logger }));
  for (const [name, extension] of [...callEventFilterExtensions(monitor), ...tracingFilterExtensions])
    extensions.filter.register(name, extension);
  registerBuiltinClusters(extensions, { rpcStatus, ...(options.random ? { random: options.random } : {}) });
  registerBuiltinRouters(extensions.router);
  registerBuiltinMergers(extensions.merger);
  extensions.cluster.register(
    MERGEABLE_CLUSTER,
    createMergeableCluster({ mergers: extensions.merger, clusters: extensions.cluster }),
  );
  return extensions;
}
