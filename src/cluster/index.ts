// The cluster layer: directories, load balancing, fault-tolerance strategies and mock, which turn
// the providers of one service into the one invoker a reference calls.
export * from "./builtin.js";
export * from "./contracts.js";
export { type DirectorySnapshot, SnapshotDirectory } from "./directory/snapshot-directory.js";
export { createStaticDirectory, StaticDirectory } from "./directory/static-directory.js";
export * from "./loadbalance/index.js";
export * from "./merger/index.js";
export { MockClusterInvoker, withMock } from "./mock/mock-cluster.js";
export { defaultMockName, MockImplementations } from "./mock/mock-implementations.js";
export { MockInvoker } from "./mock/mock-invoker.js";
export {
  emptyValueOf,
  type MockAction,
  type MockSetting,
  parseMockSetting,
  parseMockValue,
} from "./mock/mock-value.js";
export * from "./router/index.js";
export * from "./support/index.js";
export {
  clusterNameForGroup,
  createMergeableCluster,
  MERGEABLE_CLUSTER,
  MergeableClusterInvoker,
} from "./support/mergeable-cluster.js";
