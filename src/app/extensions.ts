import type { Cluster, LoadBalanceFactory, Merger, RouterFactory } from "../cluster/index.js";
import {
  Code,
  consoleLogger,
  DEFAULT_CLUSTER,
  DEFAULT_DISPATCHER,
  DEFAULT_LOADBALANCE,
  DEFAULT_SERIALIZATION,
  DEFAULT_THREADPOOL,
  ExtensionPoint,
  type FilterExtension,
  type Logger,
  RpcError,
  RpcStatusTable,
} from "../core/index.js";
import { MonitorEvents } from "../monitor/index.js";
import type { Dispatcher, ThreadPool } from "../protocol/shared/index.js";
import { createRegistryFactories } from "../registry/index.js";
import type { Serialization } from "../serialize/index.js";
import { BUILTIN_PLUGINS } from "./builtin-plugins.js";
import type { Extensions, Plugin, ProtocolFactory } from "./extension-types.js";

export type { AppLogger, Extensions, Plugin, ProtocolContext, ProtocolFactory } from "./extension-types.js";

export interface ExtensionsOptions {
  /** Where the application's extensions log. */
  readonly logger?: Logger;
  /** Plugins registered after the built-in ones, in order. */
  readonly plugins?: readonly Plugin[];
}

/** A fresh set of extension points holding the built-in plugins' extensions and then `plugins`'. */
export function createExtensions(options: ExtensionsOptions = {}): Extensions {
  const logger = options.logger ?? consoleLogger;
  const extensions: Extensions = {
    protocol: new ExtensionPoint<ProtocolFactory>("protocol", "dubbo"),
    filter: new ExtensionPoint<FilterExtension>("filter"),
    cluster: new ExtensionPoint<Cluster>("cluster", DEFAULT_CLUSTER),
    loadBalance: new ExtensionPoint<LoadBalanceFactory>("loadbalance", DEFAULT_LOADBALANCE),
    router: new ExtensionPoint<RouterFactory>("router"),
    merger: new ExtensionPoint<Merger>("merger"),
    registry: createRegistryFactories(),
    threadPool: new ExtensionPoint<ThreadPool>("threadpool", DEFAULT_THREADPOOL),
    dispatcher: new ExtensionPoint<Dispatcher>("dispatcher", DEFAULT_DISPATCHER),
    serialization: new ExtensionPoint<Serialization>("serialization", DEFAULT_SERIALIZATION),
    rpcStatus: new RpcStatusTable(),
    monitor: new MonitorEvents(logger),
    logger,
  };
  for (const plugin of [...BUILTIN_PLUGINS, ...(options.plugins ?? [])]) registerPlugin(plugin, extensions);
  return extensions;
}

function registerPlugin(plugin: Plugin, extensions: Extensions): void {
  if (typeof plugin !== "object" || plugin === null || typeof plugin.register !== "function") {
    throw new RpcError(
      `plugins: ${String(plugin)} is not a plugin (expected { name, register(extensions) }, from dubbo-ts/extension's Plugin)`,
      Code.InvalidArgument,
    );
  }
  try {
    plugin.register(extensions);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    throw new RpcError(`plugin "${plugin.name}": ${error.rawMessage}`, error.code, { cause: error });
  }
}
