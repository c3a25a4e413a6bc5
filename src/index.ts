// dubbo-ts: the public API. Symbols below are what applications use; lower layers are reachable
// through "dubbo-ts/internal" for extension authors.

export type { Extensions, ProtocolContext, ProtocolFactory } from "./app/index.js";
export {
  type AppLogger,
  createDubbo,
  DubboApplication,
  type DubboOptions,
  type ExportedService,
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
  createLogger,
  defineService,
  getRpcContext,
  type JavaLong,
  type JavaType,
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
export type { ConsumerStub, GenericStub } from "./proxy/index.js";
