import { type ExtensionPoint, type Invoker, RpcStatusTable } from "../core/index.js";
import type { Cluster, ClusterContext, Directory, LoadBalanceFactory } from "./contracts.js";
import { createConsistentHashLoadBalance } from "./loadbalance/consistent-hash.js";
import { createLeastActiveLoadBalance } from "./loadbalance/least-active.js";
import { createRandomLoadBalance } from "./loadbalance/random.js";
import { createRoundRobinLoadBalance } from "./loadbalance/round-robin.js";
import { createShortestResponseLoadBalance } from "./loadbalance/shortest-response.js";
import { withMock } from "./mock/mock-cluster.js";
import { availableCluster } from "./support/available-cluster.js";
import { broadcastCluster } from "./support/broadcast-cluster.js";
import { failbackCluster } from "./support/failback-cluster.js";
import { failfastCluster } from "./support/failfast-cluster.js";
import { failoverCluster } from "./support/failover-cluster.js";
import { failsafeCluster } from "./support/failsafe-cluster.js";
import { forkingCluster } from "./support/forking-cluster.js";
import { clusterNameForGroup } from "./support/mergeable-cluster.js";

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

export interface BuiltinLoadBalanceOptions {
  /** The application's call statistics (also given to ClusterContext.rpcStatus and the filters). */
  readonly rpcStatus?: RpcStatusTable;
  /** Randomness for random, leastactive and shortestresponse; seeded in tests. */
  readonly random?: () => number;
}

/** The built-in balancers by name, bound to the application's statistics and randomness. */
export function builtinLoadBalances(
  options: BuiltinLoadBalanceOptions = {},
): Record<string, LoadBalanceFactory> {
  const status = options.rpcStatus ?? new RpcStatusTable();
  const random = options.random ?? Math.random;
  return {
    random: () => createRandomLoadBalance(random),
    roundrobin: () => createRoundRobinLoadBalance(),
    leastactive: () => createLeastActiveLoadBalance(status, random),
    consistenthash: () => createConsistentHashLoadBalance(),
    shortestresponse: () => createShortestResponseLoadBalance(status, random),
  };
}

export interface ClusterExtensionPoints {
  readonly cluster: ExtensionPoint<Cluster>;
  readonly loadBalance: ExtensionPoint<LoadBalanceFactory>;
}

/**
 * Registers the built-in cluster strategies and balancers into an application's extension
 * points. Pass the same `rpcStatus` table as `ClusterContext.rpcStatus`, so leastactive and
 * shortestresponse see the calls the cluster counts.
 */
export function registerBuiltinClusters(
  points: ClusterExtensionPoints,
  options: BuiltinLoadBalanceOptions = {},
): void {
  for (const [name, cluster] of Object.entries(BUILTIN_CLUSTERS)) points.cluster.register(name, cluster);
  for (const [name, factory] of Object.entries(builtinLoadBalances(options))) {
    points.loadBalance.register(name, factory);
  }
}

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
