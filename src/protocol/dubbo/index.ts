// The dubbo protocol: Dubbo 2 request/response bodies exactly as Java's DubboCodec writes them,
// the consumer invoker, the provider server with its thread model (dispatcher, bounded pools,
// worker threads), graceful shutdown.
export { BodyWriterSlot } from "./codec/body-writer.js";
export { intVersion, supportsResponseAttachments } from "./codec/dubbo-version.js";
export {
  encodeRequestBody,
  type RequestFields,
  type RequestHead,
  readRequestHead,
  readRequestTail,
} from "./codec/request-body.js";
export {
  type DecodedResponse,
  decodeResponseBody,
  encodeExceptionResponse,
  encodeValueResponse,
  ResponseFlag,
} from "./codec/response-body.js";
export { createBoundedExecutor, directExecutor, type Executor } from "./dispatch/executor.js";
export { DISPATCHERS, resolveExecutor, THREADPOOLS } from "./dispatch/resolve-executor.js";
export { createWorkerInvoker, type WorkerServiceOptions } from "./dispatch/worker-invoker.js";
export { DubboInvoker } from "./dubbo-invoker.js";
export type { DubboObserver } from "./dubbo-observer.js";
export {
  createDubboProtocol,
  DUBBO_PROTOCOL,
  type DubboExporter,
  type DubboProtocol,
  type DubboProtocolOptions,
  type ServerStats,
} from "./dubbo-protocol.js";
export { providerServiceKey } from "./exporter-table.js";
export { ProviderInvocation, timeoutFromAttachment } from "./provider-invocation.js";
export {
  isSslEnabled,
  loadClientTls,
  loadServerTls,
  SSL_CA_PATH_KEY,
  SSL_CERT_PATH_KEY,
  SSL_CLIENT_AUTH_KEY,
  SSL_ENABLED_KEY,
  SSL_KEY_PATH_KEY,
  SSL_REJECT_UNAUTHORIZED_KEY,
  SSL_SERVER_NAME_KEY,
  tlsProfile,
} from "./tls-settings.js";
