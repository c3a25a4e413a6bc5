import type { ExtensionPlugin, ExtensionPoint, Invoker } from "../core/index.js";
import type { Cluster, ClusterContext, Directory, LoadBalanceFactory, RouterFactory } from "./contracts.js";
import { createConsistentHashLoadBalance } from "./loadbalance/consistent-hash.js";
import { createLeastActiveLoadBalance } from "./loadbalance/least-active.js";
import { createRandomLoadBalance } from "./loadbalance/random.js";
import { createRoundRobinLoadBalance } from "./loadbalance/round-robin.js";
import { createShortestResponseLoadBalance } from "./loadbalance/shortest-response.js";
import { registerBuiltinMergers } from "./merger/builtin-mergers.js";
import type { Merger } from "./merger/merger.js";
import { withMock } from "./mock/mock-cluster.js";
import { registerBuiltinRouters } from "./router/index.js";
import { availableCluster } from "./support/available-cluster.js";
import { broadcastCluster } from "./support/broadcast-cluster.js";
import { failbackCluster } from "./support/failback-cluster.js";
import { failfastCluster } from "./support/failfast-cluster.js";
import { failoverCluster } from "./support/failover-cluster.js";
import { failsafeCluster } from "./support/failsafe-cluster.js";
import { forkingCluster } from "./support/forking-cluster.js";
import {
  clusterNameForGroup,
  createMergeableCluster,
  MERGEABLE_CLUSTER,
} from "./support/mergeable-cluster.js";

/** The built-in strategies by name (`mergeable` comes with the router/merger registration). */
export const BUILTIN_CLUSTERS: Readonly<Record<string, Cluster>> = Object.freeze({
  failover: failoverCluster,
  failfast: failfastCluster,
  failsafe: failsafeCluster,
  failback: failbackCluster,
  forking: forkingCluster,
  broadcast: broadcastCluster,
  available: availableCluster,
});

/** The built-in balancers by name; each reads randomness, clock and statistics from its context. */
export const BUILTIN_LOAD_BALANCES: Readonly<Record<string, LoadBalanceFactory>> = Object.freeze({
  random: (context) => createRandomLoadBalance(context.random, context.now),
  roundrobin: (context) => createRoundRobinLoadBalance(context.now),
  leastactive: (context) => createLeastActiveLoadBalance(context.rpcStatus, context.random, context.now),
  consistenthash: () => createConsistentHashLoadBalance(),
  shortestresponse: (context) =>
    createShortestResponseLoadBalance(context.rpcStatus, context.random, context.now),
});

export interface ClusterExtensionPoints {
  readonly cluster: ExtensionPoint<Cluster>;
  readonly loadBalance: ExtensionPoint<LoadBalanceFactory>;
}

/** Registers the built-in cluster strategies and balancers into an application's extension points. */
export function registerBuiltinClusters(points: ClusterExtensionPoints): void {
  for (const [name, cluster] of Object.entries(BUILTIN_CLUSTERS)) points.cluster.register(name, cluster);
  for (const [name, factory] of Object.entries(BUILTIN_LOAD_BALANCES))
    points.loadBalance.register(name, factory);
}

export interface ClusterPluginPoints extends ClusterExtensionPoints {
  readonly router: ExtensionPoint<RouterFactory>;
  readonly merger: ExtensionPoint<Merger>;
}

/** The built-in strategies (mergeable included), balancers, routers and mergers. */
export const clusterPlugin: ExtensionPlugin<ClusterPluginPoints> = {
  name: "cluster",
  register(points) {
    registerBuiltinClusters(points);
    registerBuiltinRouters(points.router);
    registerBuiltinMergers(points.merger);
    points.cluster.register(
      MERGEABLE_CLUSTER,
      createMergeableCluster({ mergers: points.merger, clusters: points.cluster }),
    );
  },
};

/**
 * The strategy a reference uses: `mergeable` when its group is `*` or a list (`a,b`), else its
 * `cluster` setting, else failover.
 */
export function clusterNameOf(directory: Directory): string {
  return clusterNameForGroup(directory.url.get("group"), directory.url.get("cluster"));
}

/**
 * Builds the invoker a reference calls: the strategy named by the directory's URL, wrapped by the
 * mock wrapper. Unknown names fail here, at refer time, listing what is registered.
 */
export function createClusterInvoker(
  directory: Directory,
  context: ClusterContext,
  clusters: ExtensionPoint<Cluster>,
): Invoker {
  const cluster = clusters.get(clusterNameOf(directory));
  return withMock(cluster)(directory, context);
}
