// dubbo-ts: the public API, what applications use (semantic versioning applies). Extension
// authors add "dubbo-ts/extension"; "dubbo-ts/internal" is unstable (see the README).

export type { Extensions, ProtocolContext, ProtocolFactory } from "./app/index.js";
export {
  type AppLogger,
  createDubbo,
  DubboApplication,
  type DubboOptions,
  type ExportedService,
  type ReferenceOptions,
  type RegisterMockOptions,
} from "./app/index.js";
export type {
  ApplicationConfig,
  ConsumerConfig,
  DubboConfigOptions,
  MethodConfig,
  ProtocolConfig,
  ProviderConfig,
  ReferenceConfig,
  RegistryConfig,
  ServiceConfig,
} from "./config/index.js";
export {
  BizError,
  Code,
  defineService,
  getRpcContext,
  type JavaLong,
  type JavaType,
  java,
  RpcContext,
  RpcError,
  runWithRpcContext,
  type ServiceDefinition,
  type ServiceImplementation,
  type ServiceStub,
  Url,
} from "./core/index.js";
export type {
  CallFinished,
  CallOutcome,
  CallSide,
  CallSite,
  CallStarted,
  ConnectionChanged,
  MonitorEventMap,
  MonitorEvents,
  MonitorEventType,
  MonitorListener,
  RegistryNotified,
  ThreadPoolSaturated,
} from "./monitor/index.js";
export { createWorkerInvoker, type WorkerServiceOptions } from "./protocol/dubbo/index.js";
export {
  type CallOptions,
  type ConsumerStub,
  type GenericStub,
  withCallOptions,
} from "./proxy/index.js";
export {
  type EmbeddedRegistryOptions,
  type EmbeddedRegistryServer,
  startEmbeddedRegistry,
} from "./registry/dubbo/index.js";
