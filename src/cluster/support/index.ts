export { bindContextAttachments, PINPOINT_KEY } from "./attachments.js";
export { AvailableClusterInvoker, availableCluster } from "./available-cluster.js";
export { BroadcastClusterInvoker, broadcastCluster } from "./broadcast-cluster.js";
export { AbstractClusterInvoker } from "./cluster-invoker.js";
export { FailbackClusterInvoker, failbackCluster } from "./failback-cluster.js";
export { FailfastClusterInvoker, failfastCluster } from "./failfast-cluster.js";
export { FailoverClusterInvoker, failoverCluster } from "./failover-cluster.js";
export { FailsafeClusterInvoker, failsafeCluster } from "./failsafe-cluster.js";
export { ForkingClusterInvoker, forkingCluster } from "./forking-cluster.js";
export {
  describeReason,
  explainExclusions,
  noProviderError,
  type ProviderExclusion,
} from "./no-provider-error.js";
