// dubbo-ts/extension: what a third-party extension is written against (filters, protocols, load
// balancers, routers, clusters, mergers, registries, thread pools, dispatchers, serializations), under the same
// semantic-versioning promise as the main entry. Package extensions as a Plugin and pass it to `createDubbo({ plugins: [mine] })`
// (or register one directly: `app.extensions.loadBalance.register("mine", factory)`). The README
// lists the contracts.

export type { Extensions, Plugin, ProtocolContext, ProtocolFactory } from "./app/index.js";
export type {
  Cluster,
  ClusterContext,
  Directory,
  ExclusionReason,
  LoadBalance,
  LoadBalanceContext,
  LoadBalanceFactory,
  Merger,
  MockImplementation,
  Router,
  RouterFactory,
} from "./cluster/index.js";
export { AbstractClusterInvoker, warmupWeight, weightOf } from "./cluster/index.js";
export {
  type Activation,
  type ActivationSide,
  type Attachments,
  BizError,
  Code,
  createInvocation,
  deriveInvocation,
  type Exporter,
  ExtensionPoint,
  type ExtensionWrapper,
  type Filter,
  type FilterExtension,
  type Invocation,
  type InvocationInit,
  type InvokeFn,
  type Invoker,
  isRetryable,
  type Logger,
  type Node,
  type Protocol,
  RpcError,
  type RpcResult,
  RpcStatus,
  RpcStatusTable,
  resultOf,
  type ServiceDefinition,
  timeLeft,
  Url,
  type UrlParts,
  withAttachments,
} from "./core/index.js";
export {
  createBoundedExecutor,
  type Dispatcher,
  type Executor,
  type ThreadPool,
} from "./protocol/shared/index.js";
export {
  ALL_CATEGORIES,
  CONFIGURATORS_CATEGORY,
  CONSUMERS_CATEGORY,
  categoryOf,
  emptyUrl,
  FailbackRegistry,
  isEmptyUrl,
  isMatch,
  type NotifyListener,
  PROVIDERS_CATEGORY,
  type Registry,
  type RegistryContext,
  type RegistryExtension,
  type RegistryFactory,
  type RegistryLogger,
  type RegistryOptions,
  ROUTERS_CATEGORY,
  registryPlugin,
} from "./registry/index.js";
export type { ObjectInput, ObjectOutput, Serialization } from "./serialize/index.js";
