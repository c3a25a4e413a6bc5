// dubbo-ts: the public API, what applications use (semantic versioning applies). Extension
// authors add "dubbo-ts/extension"; "dubbo-ts/internal" is unstable (see the README).

export type { Extensions, Plugin, ProtocolContext, ProtocolFactory } from "./app/index.js";
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
  CustomExtensions,
  DubboConfigOptions,
  ExtensionName,
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
  createLogger,
  defineService,
  getRpcContext,
  type JavaClassValue,
  type JavaLong,
  type JavaType,
  type JavaValue,
  java,
  type LogFields,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogSink,
  RpcContext,
  RpcError,
  runWithRpcContext,
  type ServiceDefinition,
  type ServiceImplementation,
  type ServiceStub,
  silentLogger,
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
export { createWorkerInvoker, type WorkerServiceOptions } from "./protocol/shared/index.js";
// Triple's IDL mode: services from .proto files (protoc-gen-es descriptors), all four call kinds.
export {
  createProtoClient,
  createProtoServer,
  defineProtoService,
  type ProtoCallContext,
  type ProtoCallOptions,
  type ProtoClient,
  type ProtoClientHandle,
  type ProtoClientOptions,
  type ProtoImplementation,
  type ProtoServer,
  type ProtoServerOptions,
  type ProtoService,
  type ProtoServiceOptions,
} from "./protocol/triple/index.js";
export {
  type CallOptions,
  type ConsumerStub,
  type GenericStub,
  withCallOptions,
} from "./proxy/index.js";
export type { EmbeddedRegistryOptions, EmbeddedRegistryServer } from "./registry/dubbo/index.js";
export { startEmbeddedRegistry } from "./registry/dubbo/lazy-entry.js";
