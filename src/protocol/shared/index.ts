// What every protocol shares: the thread model (dispatchers, bounded pools, worker threads), the
// exporter table a server finds services in, the provider-side invocation, the TLS and reconnect
// settings read from URLs, and the observer a protocol reports its links and refusals to.
export { createBoundedExecutor, directExecutor, type Executor } from "./dispatch/executor.js";
export {
  BUILTIN_DISPATCHERS,
  BUILTIN_THREAD_POOLS,
  builtinThreadModel,
  type Dispatcher,
  resolveExecutor,
  type ThreadModel,
  type ThreadPool,
} from "./dispatch/thread-model.js";
export { createWorkerInvoker, type WorkerServiceOptions } from "./dispatch/worker-invoker.js";
export { providerServiceKey } from "./exporter-table.js";
export { createIdlProviderInvoker } from "./idl-provider-invoker.js";
export { implementationInvoker } from "./implementation-invoker.js";
export type { ProtocolObserver, ThreadPoolSizes } from "./protocol-observer.js";
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
