import type { Invoker } from "../core/index.js";
import type { DirectoryCounts } from "../monitor/index.js";
import type { RegistryReference } from "../registry/protocol/index.js";

function isRegistryReference(invoker: Invoker): invoker is RegistryReference {
  return "directories" in invoker;
}

/**
 * What each registry directory of the application's references holds now, for Java 3's
 * directory metrics: the providers referred, those whose link is up or down, and those the
 * registry lists disabled. References to a fixed address have no directory and are not counted.
 */
export function* directoryCounts(references: Iterable<Invoker>): Iterable<DirectoryCounts> {
  for (const reference of references) {
    if (!isRegistryReference(reference)) continue;
    for (const directory of reference.directories) {
      const invokers = directory.all();
      const valid = invokers.filter((i) => i.isAvailable()).length;
      let disabled = 0;
      for (const reason of directory.excluded().values()) if (reason.kind === "disabled") disabled += 1;
      yield {
        serviceKey: directory.url.serviceKey,
        registry: directory.registry.url.address,
        registerMode: directory.registry.registerMode ?? "interface",
        all: invokers.length,
        valid,
        toReconnect: invokers.length - valid,
        disabled,
      };
    }
  }
}
