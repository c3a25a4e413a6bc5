/**
 * Every default value, written once, with Java Dubbo 2.7's numbers so that Java and Node peers agree.
 * The URL key each one governs is named beside it.
 */

/** `timeout`: per-attempt call timeout, ms. */
export const DEFAULT_TIMEOUT_MS = 1000;
/** `retries`: extra attempts after the first (failover). */
export const DEFAULT_RETRIES = 2;
/** `loadbalance` */
export const DEFAULT_LOADBALANCE = "random";
/** `cluster` */
export const DEFAULT_CLUSTER = "failover";
/** `weight` */
export const DEFAULT_WEIGHT = 100;
/** `warmup`: ms over which a new provider's weight ramps up. */
export const DEFAULT_WARMUP_MS = 600_000;
/** `heartbeat`: idle ms before a heartbeat is sent. */
export const DEFAULT_HEARTBEAT_MS = 60_000;
/** Idle ms after which a silent link is closed: `heartbeat.timeout`, else this many heartbeats. */
export const HEARTBEAT_TIMEOUT_FACTOR = 3;
/** `payload`: largest frame body, bytes (8 MiB). */
export const DEFAULT_PAYLOAD_BYTES = 8 * 1024 * 1024;
/** `port` of the dubbo protocol. */
export const DEFAULT_DUBBO_PORT = 20880;
/** `connect.timeout`, ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3000;
/** `reconnect`: first reconnect delay, ms. */
export const DEFAULT_RECONNECT_PERIOD_MS = 2000;
/** `connections`: 0 means the shared connection. */
export const DEFAULT_CONNECTIONS = 0;
/** `shareconnections`: how many shared connections per address. */
export const DEFAULT_SHARE_CONNECTIONS = 1;
/** `threads` of the fixed pool. */
export const DEFAULT_THREADS = 200;
/** `queues`: 0 means no waiting queue (synchronous hand-off, as Java). */
export const DEFAULT_QUEUES = 0;
/** `threadpool` */
export const DEFAULT_THREADPOOL = "fixed";
/** `dispatcher` */
export const DEFAULT_DISPATCHER = "all";
/** `accepts`: 0 means no limit on connections. */
export const DEFAULT_ACCEPTS = 0;
/** `serialization` */
export const DEFAULT_SERIALIZATION = "hessian2";
/** Hessian 2's serialization id in the frame header. */
export const HESSIAN2_SERIALIZATION_ID = 2;
/** `dubbo`: the protocol version we send. */
export const DUBBO_PROTOCOL_VERSION = "2.0.2";
/** `release`: the Dubbo release we report to registries (what Java consumers read). */
export const DUBBO_RELEASE = "2.7.23";
/** The version sent on the wire when a service has none. */
export const DEFAULT_SERVICE_VERSION = "0.0.0";
/** `shutdown.wait`, ms to drain in-flight calls. */
export const DEFAULT_SHUTDOWN_WAIT_MS = 10_000;
/** `failback` retry count, period and pending-task cap. */
export const DEFAULT_FAILBACK_TIMES = 3;
export const DEFAULT_FAILBACK_PERIOD_MS = 5000;
export const DEFAULT_FAILBACK_TASKS = 100;
/** `forks` */
export const DEFAULT_FORKS = 2;
/** `sticky` */
export const DEFAULT_STICKY = false;
/** `cluster.availablecheck` */
export const DEFAULT_AVAILABLE_CHECK = true;
/** `hash.nodes` and `hash.arguments` of consistenthash. */
export const DEFAULT_HASH_NODES = 160;
export const DEFAULT_HASH_ARGUMENTS = "0";
/** `check`: fail at start when nothing is reachable. */
export const DEFAULT_CHECK = true;
/** `lazy` */
export const DEFAULT_LAZY = false;
/** `retry.period` and `retry.times` of a failback registry. */
export const DEFAULT_REGISTRY_RETRY_PERIOD_MS = 5000;
export const DEFAULT_REGISTRY_RETRY_TIMES = 3;
/** `session`: ZooKeeper session timeout, ms. */
export const DEFAULT_REGISTRY_SESSION_MS = 60_000;
/** ZooKeeper root when the registry URL has no `group`. */
export const DEFAULT_REGISTRY_ROOT = "dubbo";
/** `accesslog` buffer and flush period. */
export const DEFAULT_ACCESSLOG_FLUSH_MS = 5000;
