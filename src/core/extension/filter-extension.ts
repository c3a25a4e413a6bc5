import type { Filter } from "../rpc/filter.js";
import type { Url } from "../url/url.js";
import {
  type ActivatedExtension,
  type Activation,
  type ActivationSide,
  activateExtensions,
} from "./activation.js";
import type { ExtensionPoint } from "./extension-point.js";

/**
 * A filter as an extension: the filter itself and, for filters that switch themselves on, its
 * activation (side, order, URL keys). A filter without `activate` runs only where a URL names it
 * in `service.filter` / `reference.filter`.
 */
export interface FilterExtension {
  readonly filter: Filter;
  readonly activate?: Activation | undefined;
  /**
   * A consumer filter that runs once per logical call, around the cluster strategy and its
   * retries (Java's `ClusterFilter`), instead of once per attempt on a provider.
   */
  readonly aroundCluster?: boolean | undefined;
  /** Called once when the application stops, after its services drained: flush buffers, stop timers. */
  readonly close?: (() => Promise<void>) | undefined;
}

/** The URL key that lists a side's filters: `service.filter` (provider) or `reference.filter` (consumer). */
export function filterListKey(side: ActivationSide): "service.filter" | "reference.filter" {
  return side === "provider" ? "service.filter" : "reference.filter";
}

/**
 * The ordered active filters for `url` on `side`: activated defaults plus the ones the URL's
 * `service.filter` / `reference.filter` names, `-name` and `-default` honoured. Unknown names throw,
 * listing the registered filters.
 */
export function activateFilters(
  point: ExtensionPoint<FilterExtension>,
  url: Url,
  side: ActivationSide,
): ActivatedExtension<FilterExtension>[] {
  const setting = filterListKey(side);
  return activateExtensions(point, {
    names: url.list(setting),
    side,
    url,
    setting,
    activationOf: (ext) => ext.activate,
  });
}
