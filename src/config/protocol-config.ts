import {
  DEFAULT_ACCEPTS,
  DEFAULT_BACKLOG,
  DEFAULT_DISPATCHER,
  DEFAULT_DUBBO_PORT,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_PROTOCOL_NAME,
  DEFAULT_QUEUES,
  DEFAULT_SERIALIZATION,
  DEFAULT_SHUTDOWN_WAIT_MS,
  DEFAULT_THREADPOOL,
  DEFAULT_THREADS,
  DEFAULT_TRIPLE_PORT,
} from "../core/index.js";
import { isRecord, readRecord } from "./errors.js";
import type { ExtensionName } from "./extension-name-types.js";
import {
  extensionField,
  type FieldSpec,
  type FieldTable,
  type Given,
  integerField,
  JAVA_INT_MAX,
  parametersField,
  readFields,
  textField,
} from "./fields.js";
import { type ProtocolSslConfig, protocolSslField } from "./ssl-config.js";

/** A protocol services are exported on (Java `ProtocolConfig`, `dubbo.protocol.*` / `dubbo.protocols.<id>.*`). */
export interface ProtocolConfig {
  /** Protocol extension: "dubbo", "injvm", ... Default "dubbo". URL protocol. Java `dubbo.protocol.name`. */
  name?: ExtensionName<"protocol">;
  /**
   * Host to advertise (and bind). Default: bind all interfaces (`anyhost=true`) and advertise the
   * first non-internal IPv4 address. URL host. Java `dubbo.protocol.host`.
   */
  host?: string;
  /**
   * Port to bind (and advertise), 0 (or Java's -1) for any free port. Default 20880 for dubbo, 0
   * otherwise. URL port. Java `dubbo.protocol.port`; the environment's `DUBBO_PORT_TO_BIND` wins.
   */
  port?: number;
  /**
   * Host written to registries instead of the bound one, for a provider behind NAT or in a
   * container. No default. URL host (the bind host moves to `bind.ip`). Java's `DUBBO_IP_TO_REGISTRY`.
   */
  registerHost?: string;
  /**
   * Port written to registries instead of the bound one. No default. URL port (the bound port
   * moves to `bind.port`). Java's `DUBBO_PORT_TO_REGISTRY`.
   */
  registerPort?: number;
  /** Most requests handled at once by the `fixed` pool. Default 200. URL key `threads`. */
  threads?: number;
  /** Requests that may wait for a handler; 0 = reject when all are busy. Default 0. URL key `queues`. */
  queues?: number;
  /** Executor: `fixed`, `cached`, `limited`, ... Default "fixed". URL key `threadpool`. */
  threadpool?: ExtensionName<"threadpool">;
  /** What runs through the executor: `all`, `direct`, `message`, `execution`, `connection`. Default "all". URL key `dispatcher`. */
  dispatcher?: ExtensionName<"dispatcher">;
  /** Most connections accepted; 0 = no limit. Default 0. URL key `accepts`. */
  accepts?: number;
  /**
   * Connections the kernel queues until the server accepts them (the listen backlog); the kernel
   * caps it at `net.core.somaxconn`. Default 4096. URL key `backlog`.
   */
  backlog?: number;
  /** Largest frame body in bytes, both ways. Default 8388608 (8 MiB). URL key `payload`. */
  payloadBytes?: number;
  /** Idle ms before a heartbeat is sent; 0 disables. Default 60000. URL key `heartbeat`. */
  heartbeatMs?: number;
  /** Idle ms before a silent connection is closed. Default 3 × heartbeat. URL key `heartbeat.timeout`. */
  heartbeatTimeoutMs?: number;
  /**
   * Serialization of request and response bodies: "hessian2" (id 2, Java's default) or "fastjson"
   * (JSON, id 6), or one a plugin registers. Default "hessian2". URL key `serialization`; consumers
   * write in it (the registered URL carries it and `prefer.serialization`), and a provider reads
   * every serialization it has and answers in the request's.
   */
  serialization?: ExtensionName<"serialization">;
  /** Ms to drain in-flight calls at shutdown. Default 10000. Java `dubbo.service.shutdown.wait`. */
  shutdownWaitMs?: number;
  /**
   * Serve TLS: `{ certPath, keyPath, caPath?, clientAuth? }` (PEM files, read at export), or
   * `false`. Default false. URL key `ssl-enabled=true` (registered) plus hidden `.ssl.*` keys
   * (never registered). Java `dubbo.protocol.ssl-enabled` and 3.x `dubbo.ssl.server-*`.
   */
  ssl?: ProtocolSslConfig | false;
  /** Extra URL parameters for services exported on this protocol. */
  parameters?: Readonly<Record<string, string>>;
}

export interface ResolvedProtocolConfig {
  readonly id: string;
  readonly name: string;
  readonly host?: string;
  readonly port: number;
  readonly registerHost?: string;
  readonly registerPort?: number;
  readonly threads: number;
  readonly queues: number;
  readonly threadpool: string;
  readonly dispatcher: string;
  readonly accepts: number;
  readonly backlog: number;
  readonly payloadBytes: number;
  readonly heartbeatMs: number;
  readonly heartbeatTimeoutMs?: number;
  readonly serialization: string;
  readonly shutdownWaitMs: number;
  readonly ssl?: ProtocolSslConfig | false;
  readonly parameters: Readonly<Record<string, string>>;
  /** What was set explicitly; only these become provider URL parameters. */
  readonly given: Given<ProtocolConfig>;
}

export const PROTOCOL_FIELDS: FieldTable<ProtocolConfig> = {
  name: extensionField("protocol"),
  host: textField(),
  port: anyPortField(),
  registerHost: textField(),
  registerPort: integerField(1, 65535, "the port consumers connect to"),
  threads: integerField(1, JAVA_INT_MAX, "handlers", { urlKey: "threads" }),
  queues: integerField(0, JAVA_INT_MAX, "waiting requests", { urlKey: "queues" }),
  threadpool: extensionField("threadpool", { urlKey: "threadpool" }),
  dispatcher: extensionField("dispatcher", { aliases: ["dispather"], urlKey: "dispatcher" }),
  accepts: integerField(0, JAVA_INT_MAX, "0 = no limit", { urlKey: "accepts" }),
  backlog: integerField(1, JAVA_INT_MAX, "queued connections", { urlKey: "backlog" }),
  payloadBytes: integerField(1, JAVA_INT_MAX, "bytes", { aliases: ["payload"], urlKey: "payload" }),
  heartbeatMs: integerField(0, JAVA_INT_MAX, "ms, 0 = off", { aliases: ["heartbeat"], urlKey: "heartbeat" }),
  heartbeatTimeoutMs: integerField(1, JAVA_INT_MAX, "ms", {
    aliases: ["heartbeat.timeout"],
    urlKey: "heartbeat.timeout",
  }),
  serialization: extensionField("serialization", { urlKey: "serialization" }),
  shutdownWaitMs: integerField(0, JAVA_INT_MAX, "ms", { aliases: ["shutdown.wait"] }),
  ssl: protocolSslField,
  parameters: parametersField(),
};

/** A port from 0 to 65535, where Java's -1 ("pick a free port") reads as 0. */
function anyPortField(): FieldSpec<number> {
  const port = integerField(0, 65535, "0 = any free port, as is Java's -1");
  return {
    read: (value, path, fromText) => (value === -1 || value === "-1" ? 0 : port.read(value, path, fromText)),
  };
}

export function readProtocol(input: unknown, path: string, fromText = false): Given<ProtocolConfig> {
  return readFields(PROTOCOL_FIELDS, readRecord(input, path), path, { fromText });
}

/**
 * Resolves one protocol into a new frozen object with every default filled in.
 * @throws RpcError (InvalidArgument) naming the bad key, its value and what is accepted.
 */
export function resolveProtocol(
  options: ProtocolConfig = {},
  id = isRecord(options) && typeof options.name === "string" ? options.name : DEFAULT_PROTOCOL_NAME,
  path = `protocols.${id}`,
): ResolvedProtocolConfig {
  const given = Object.freeze(readProtocol(options, path));
  const name = given.name ?? DEFAULT_PROTOCOL_NAME;
  return Object.freeze({
    threads: DEFAULT_THREADS,
    queues: DEFAULT_QUEUES,
    threadpool: DEFAULT_THREADPOOL,
    dispatcher: DEFAULT_DISPATCHER,
    accepts: DEFAULT_ACCEPTS,
    backlog: DEFAULT_BACKLOG,
    payloadBytes: DEFAULT_PAYLOAD_BYTES,
    heartbeatMs: DEFAULT_HEARTBEAT_MS,
    serialization: DEFAULT_SERIALIZATION,
    shutdownWaitMs: DEFAULT_SHUTDOWN_WAIT_MS,
    parameters: Object.freeze({}),
    ...given,
    id,
    name,
    port: given.port ?? defaultPortOf(name),
    given,
  });
}

/** The port a protocol serves on when none is set (Java's `Protocol.getDefaultPort`); 0 picks a free one. */
export function defaultPortOf(protocol: string): number {
  if (protocol === "dubbo") return DEFAULT_DUBBO_PORT;
  if (protocol === "tri") return DEFAULT_TRIPLE_PORT;
  return 0;
}
