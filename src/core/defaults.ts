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
/** `port` of the tri (Triple) protocol (Java's `TripleProtocol.getDefaultPort`). */
export const DEFAULT_TRIPLE_PORT = 50051;
/** `connect.timeout`, ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3000;
/** `reconnect`: ms between two attempts to reconnect a dropped link (Dubbo 2.6's default). */
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
/**
 * `backlog`: connections the kernel queues before the server accepts them. Node's own 511 drops
 * SYNs when thousands of consumers connect at once; Linux caps the value at `net.core.somaxconn`
 * (4096 since 5.4), which is what Java Dubbo's netty 4 server gets by not setting one.
 */
export const DEFAULT_BACKLOG = 4096;
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
/** `ssl-enabled` (Java `ProtocolConfig.sslEnabled`): plain TCP unless TLS is configured. */
export const DEFAULT_SSL_ENABLED = false;
/** `retry.period` and `retry.times` of a failback registry. */
export const DEFAULT_REGISTRY_RETRY_PERIOD_MS = 5000;
export const DEFAULT_REGISTRY_RETRY_TIMES = 3;
/** `session`: ZooKeeper session timeout, ms. */
export const DEFAULT_REGISTRY_SESSION_MS = 60_000;
/** ZooKeeper root when the registry URL has no `group`. */
export const DEFAULT_REGISTRY_ROOT = "dubbo";
/** `accesslog` buffer and flush period. */
export const DEFAULT_ACCESSLOG_FLUSH_MS = 5000;
/** `sendqueue`: bytes a connection may hold waiting for the peer to read before sends fail (16 MiB). */
export const DEFAULT_SEND_QUEUE_BYTES = 16 * 1024 * 1024;
/** Reconnect: the quick first attempt after a drop, ms, and the fraction of jitter taken off each delay. */
export const DEFAULT_RECONNECT_INITIAL_MS = 100;
export const DEFAULT_RECONNECT_JITTER = 0.2;
/** A fresh connection that drops within this many ms counts as refused (SOFARPC's double check). */
export const DEFAULT_CONNECTION_DOUBLE_CHECK_MS = 100;
/** Config layer: `protocol` name of a service's protocol when none is given. */
export const DEFAULT_PROTOCOL_NAME = "dubbo";
/** Registry protocol when an address has no `scheme://` (Java's default registry is `dubbo`). */
export const DEFAULT_REGISTRY_PROTOCOL = "dubbo";
/** Registry ports when an address has none: ZooKeeper's client port, Java's dubbo registry port. */
export const DEFAULT_ZOOKEEPER_PORT = 2181;
export const DEFAULT_DUBBO_REGISTRY_PORT = 9090;
/** Path of a registry URL (Java `RegistryService`). */
export const REGISTRY_SERVICE_INTERFACE = "org.apache.dubbo.registry.RegistryService";
/** Registry `timeout`: ms to connect to the registry (ZooKeeper client connection timeout). */
export const DEFAULT_REGISTRY_TIMEOUT_MS = 5000;
/** Registry `register`, `subscribe` and `file.cache` switches. */
export const DEFAULT_REGISTER = true;
export const DEFAULT_SUBSCRIBE = true;
export const DEFAULT_REGISTRY_FILE_CACHE = true;
/** `actives` (consumer) and `executes` (provider) concurrency limits per method; 0 means none. */
export const DEFAULT_ACTIVES = 0;
export const DEFAULT_EXECUTES = 0;
/** `async` and one-way (`return=false`) calls. */
export const DEFAULT_ASYNC = false;
export const DEFAULT_ONEWAY = false;
/** `delay`: ms to wait before exporting a service. */
export const DEFAULT_DELAY_MS = 0;
/** `dynamic`: a provider's registration disappears with its session (ephemeral node). */
export const DEFAULT_DYNAMIC = true;
/** `deprecated` and `generic` flags of a provider URL. */
export const DEFAULT_DEPRECATED = false;
export const DEFAULT_GENERIC = false;
/** Application `environment` (Java accepts develop, test, product). */
export const DEFAULT_ENVIRONMENT = "product";
/** Java's QoS port is on by default (`QosConstants`), on 22222, for loopback callers only. */
export const DEFAULT_QOS_ENABLE = true;
export const DEFAULT_QOS_PORT = 22222;
export const DEFAULT_QOS_ACCEPT_FOREIGN_IP = false;
/** Deepest nesting of lists, maps and objects a serializer writes or reads before refusing (hostile input). */
export const DEFAULT_SERIALIZATION_MAX_DEPTH = 512;
/** `broadcast.fail.percent`: share of failed providers after which broadcast stops calling the rest. */
export const DEFAULT_BROADCAST_FAIL_PERCENT = 100;
/**
 * `script.timeout` on a `script://` router rule URL: ms one evaluation of the rule may run before
 * it is stopped (and the provider list kept). Java has no limit; a runaway rule would block calls.
 */
export const DEFAULT_SCRIPT_ROUTER_TIMEOUT_MS = 50;
/** Dubbo's fastjson serialization id (the JSON serialization). */
export const FASTJSON_SERIALIZATION_ID = 6;
/**
 * `address.wait` on a reference (SOFARPC's addressWait): ms the first calls of a reference that
 * has never seen a provider wait for the registry to deliver one. 0 fails at once, as Java does.
 */
export const DEFAULT_ADDRESS_WAIT_MS = 0;
/**
 * Embedded (`dubbo://`) registry: `lease` ms a client's registrations outlive its last renewal
 * (clients renew every third of it, so a killed process disappears within about this long), and
 * `watch.wait` ms the server holds a long-poll before answering "no change".
 */
export const DEFAULT_EMBEDDED_REGISTRY_LEASE_MS = 15_000;
export const DEFAULT_EMBEDDED_REGISTRY_WATCH_MS = 20_000;
