import {
  type ActivationSide,
  activateFilters,
  type ExtensionPoint,
  type Filter,
  type FilterExtension,
  type Protocol,
  type Url,
} from "../core/index.js";
import { buildFilterChain } from "./filter-chain.js";

/**
 * The filters that apply to each invoker of `url` on `side`, in chain order: the activated
 * defaults plus the ones its `service.filter` / `reference.filter` lists, less those that run
 * around the cluster (`withClusterFilters`). Unknown names throw, listing the registered ones.
 */
function resolveFilters(point: ExtensionPoint<FilterExtension>, url: Url, side: ActivationSide): Filter[] {
  return activateFilters(point, url, side)
    .filter((a) => a.extension.aroundCluster !== true)
    .map((a) => a.extension.filter);
}

/** Protocols that only delegate to another protocol: their invokers get filters there, not here. */
const DELEGATING_PROTOCOLS: ReadonlySet<string> = new Set(["registry", "service-discovery-registry"]);

/**
 * Java's ProtocolFilterWrapper: a protocol whose `export` wraps the invoker in its provider filter
 * chain and whose `refer` wraps the referred invoker in its consumer chain. The chains are resolved
 * before the inner protocol is asked, so an unknown filter name fails before anything is exported.
 */
export function wrapProtocolWithFilters(
  protocol: Protocol,
  filters: ExtensionPoint<FilterExtension>,
): Protocol {
  if (DELEGATING_PROTOCOLS.has(protocol.name)) return protocol;
  return {
    name: protocol.name,
    defaultPort: protocol.defaultPort,
    export: (invoker) => {
      const chain = resolveFilters(filters, invoker.url, "provider");
      return protocol.export(buildFilterChain(invoker, chain));
    },
    refer: async (url) => {
      const chain = resolveFilters(filters, url, "consumer");
      return buildFilterChain(await protocol.refer(url), chain);
    },
    destroy: () => protocol.destroy(),
  };
}
