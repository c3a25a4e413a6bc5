import { ExtensionPoint, type FilterExtension } from "../core/index.js";
import { consumerContextFilter, providerContextFilter } from "./context-filters.js";
import { echoFilter } from "./echo-filter.js";
import { exceptionFilter } from "./exception-filter.js";
import { genericFilter } from "./generic/generic-filter.js";

/**
 * The base filters under their Java names, with Java's activation orders (lower runs outer):
 * provider `echo` (-110000) → `generic` (-20000) → `context` (-10000) → `exception` (0);
 * consumer `consumercontext` (-10000).
 */
export const BASE_FILTERS: ReadonlyArray<readonly [string, FilterExtension]> = Object.freeze([
  [
    "echo",
    Object.freeze({ filter: echoFilter, activate: Object.freeze({ side: "provider", order: -110000 }) }),
  ],
  [
    "generic",
    Object.freeze({ filter: genericFilter, activate: Object.freeze({ side: "provider", order: -20000 }) }),
  ],
  [
    "context",
    Object.freeze({
      filter: providerContextFilter,
      activate: Object.freeze({ side: "provider", order: -10000 }),
    }),
  ],
  [
    "exception",
    Object.freeze({ filter: exceptionFilter, activate: Object.freeze({ side: "provider", order: 0 }) }),
  ],
  [
    "consumercontext",
    Object.freeze({
      filter: consumerContextFilter,
      activate: Object.freeze({ side: "consumer", order: -10000 }),
    }),
  ],
] as const);

/** Registers the base filters into an application's filter point. */
export function registerBaseFilters(point: ExtensionPoint<FilterExtension>): ExtensionPoint<FilterExtension> {
  for (const [name, extension] of BASE_FILTERS) point.register(name, extension);
  return point;
}

/** A new filter extension point (kind "filter") holding the base filters; one per application. */
export function createFilterExtensionPoint(): ExtensionPoint<FilterExtension> {
  return registerBaseFilters(new ExtensionPoint<FilterExtension>("filter"));
}
