import { activateFilters, type ExtensionPoint, type FilterExtension, type Invoker } from "../core/index.js";
import { buildFilterChain } from "./filter-chain.js";

/**
 * Java's `ClusterFilter` chain: wraps a reference's invoker (the cluster strategy with its
 * retries, or an in-process export) in the consumer filters marked `aroundCluster`, activated and
 * listed by its URL's `reference.filter` as every consumer filter is, so each runs once per
 * logical call, however many providers the call tries.
 */
export function withClusterFilters(point: ExtensionPoint<FilterExtension>, invoker: Invoker): Invoker {
  const chain = activateFilters(point, invoker.url, "consumer")
    .filter((a) => a.extension.aroundCluster === true)
    .map((a) => a.extension.filter);
  return buildFilterChain(invoker, chain);
}
