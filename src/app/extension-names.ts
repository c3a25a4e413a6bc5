import {
  collectExtensionNames,
  type DubboConfig,
  type ExtensionNameUse,
  type ExtensionPointName,
  toRegistryUrls,
} from "../config/index.js";
import { Code, RpcError } from "../core/index.js";
import { SerializationTable } from "../serialize/index.js";
import type { Extensions } from "./extensions.js";

function namesOf(extensions: Extensions, point: ExtensionPointName): readonly string[] {
  switch (point) {
    case "protocol":
      return extensions.protocol.names();
    case "registry":
      return extensions.registry.names();
    case "cluster":
      return extensions.cluster.names();
    case "loadbalance":
      return extensions.loadBalance.names();
    case "filter":
      return extensions.filter.names();
    case "serialization":
      return extensions.serialization.names();
    case "threadpool":
      return extensions.threadPool.names();
    case "dispatcher":
      return extensions.dispatcher.names();
  }
}

/**
 * Checks, at configuration time, every extension name the configuration mentions (protocols,
 * balancers, clusters, filters, registries, thread pools, …), so a typo fails at start with the
 * setting's path and the registered names, never at the first call.
 */
export function assertExtensionNames(config: DubboConfig, extensions: Extensions): void {
  assertNamesKnown(collectExtensionNames(config), extensions);
}

/** Checks the extension names one service or reference mentions. */
export function assertNamesKnown(uses: readonly ExtensionNameUse[], extensions: Extensions): void {
  for (const use of uses) {
    const known = namesOf(extensions, use.point);
    if (!known.includes(use.name)) {
      throw new RpcError(
        `${use.setting}: "${use.name}" names no ${use.point} (registered: ${known.join(", ") || "none"})`,
        Code.InvalidArgument,
      );
    }
  }
}

/**
 * Lets each plugin check its own part of the configuration: every registry URL (address and
 * `parameters`) goes to its registry type's `validate`, and every serialization's header id is
 * checked (1 to 31, unique). Runs after the names are known to exist.
 */
export function assertPluginSettings(config: DubboConfig, extensions: Extensions): void {
  new SerializationTable(extensions.serialization).assertValid();
  for (const [id, registry] of Object.entries(config.registries)) {
    for (const url of toRegistryUrls(registry, config.application)) {
      extensions.registry.get(url.protocol).validate?.(url, `registries.${id}`);
    }
  }
}
