import type { ConnectionOptions } from "node:tls";
import {
  Code,
  DEFAULT_CHECK,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_CONNECTIONS,
  DEFAULT_DUBBO_PORT,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_LAZY,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_SHARE_CONNECTIONS,
  DEFAULT_SHUTDOWN_WAIT_MS,
  DeadlineTimers,
  type ExtensionPoint,
  type Invoker,
  type Protocol,
  RpcError,
  type Url,
} from "../../core/index.js";
import {
  builtinSerializations,
  preferredSerialization,
  type Serialization,
  SerializationTable,
} from "../../serialize/index.js";
import {
  type ConnectionPool,
  consoleLogger,
  createConnectionHolder,
  createConnectionPool,
  createManagedConnection,
  type Logger,
  type ManagedConnection,
} from "../../transport/index.js";
import { builtinThreadModel, type ThreadModel } from "../shared/dispatch/thread-model.js";
import type { ProtocolObserver } from "../shared/protocol-observer.js";
import { reconnectSettingOf } from "../shared/reconnect-setting.js";
import { type ServedExporter, ServerSet } from "../shared/server-set.js";
import { loadClientTls, loadServerTls, tlsProfile } from "../shared/tls-settings.js";
import { serializationEventCodec } from "./codec/event-bodies.js";
import { DubboInvoker } from "./dubbo-invoker.js";
import { createDubboServer, type DubboServer } from "./dubbo-server.js";
import { createExchangeClient, type ExchangeClient } from "./exchange/index.js";

export const DUBBO_PROTOCOL = "dubbo";

export interface DubboProtocolOptions {
  readonly logger?: Logger;
  /**
   * ms a server drains in-flight calls at shutdown when the export URL has no `shutdown.wait`.
   * Default 10000 (Java `dubbo.service.shutdown.wait`).
   */
  readonly shutdownWaitMs?: number;
  /** Told of connections and of calls refused by a full thread pool (the application's monitor). */
  readonly observer?: ProtocolObserver;
  /** The application's deadline timers, shared by all its protocols (default: the protocol's own). */
  readonly deadlines?: DeadlineTimers;
  /** The application's thread pools and dispatchers, by name (default: the built-ins only). */
  readonly threadModel?: ThreadModel;
  /** The application's serializations, by name (default: the built-ins, hessian2 and fastjson). */
  readonly serializations?: ExtensionPoint<Serialization>;
}

/** What `export` returns: the exporter and the URL it really serves on (the bound port). */
export type DubboExporter = ServedExporter;

export interface DubboProtocol extends Protocol {
  export(invoker: Invoker): Promise<DubboExporter>;
  refer(url: Url): Promise<DubboInvoker>;
  /** The invokers `refer` made that are not destroyed yet, for diagnostics. */
  readonly invokerCount: number;
  /** Addresses (`host:port`) of the servers now running, for diagnostics. */
  readonly serverAddresses: readonly string[];
  /** Each running server: its address, open connections, calls in flight and exported service keys. */
  serverStats(): Promise<ServerStats[]>;
}

export interface ServerStats {
  readonly address: string;
  readonly connections: number;
  readonly inFlight: number;
  readonly services: readonly string[];
}

/** What a reference's links are made from: its URL (heartbeat, timeouts, payload) and TLS options. */
interface LinkSettings {
  readonly url: Url;
  readonly tls: ConnectionOptions | undefined;
}

type LinkPool = ConnectionPool<ExchangeClient, LinkSettings>;

/** Whether a link may take calls: not marked read-only by its provider. */
const isUsableLink = (client: ExchangeClient): boolean => client.isAvailable;

function optionalNumber(url: Url, key: string): number | undefined {
  return url.has(key) ? url.number(key, 0) : undefined;
}

/**
 * The dubbo protocol (Java's DubboProtocol): `export` serves invokers on a Dubbo 2 server, one per
 * `host:port`, shared by every service exported there and found by service key
 * (`group/interface:version`); `refer` returns a {@link DubboInvoker} over `connections` dedicated
 * links or the application's shared ones (ref-counted), `lazy` and `check` honoured. `destroy`
 * shuts the servers down gracefully (READONLY, drain up to `shutdown.wait`) and closes every link.
 * Create one per application; nothing is global.
 */
export function createDubboProtocol(options: DubboProtocolOptions = {}): DubboProtocol {
  const logger = options.logger ?? consoleLogger;
  const servers = new ServerSet<DubboServer>();
  const references = new Set<DubboInvoker>();
  const exporters = new Set<DubboExporter>();
  /**
   * The shared links, one pool per TLS setup (`""` for plain TCP): pools are keyed by address, and
   * a TLS and a plain reference to one address must not share a link.
   */
  const pools = new Map<string, LinkPool>();
  /** The client TLS options of each setup, its files read once per protocol. */
  const clientTls = new Map<string, Promise<ConnectionOptions | undefined>>();
  /** The timeouts of every call on every link, on one timer per distinct timeout. */
  const deadlines = options.deadlines ?? new DeadlineTimers({ keepAlive: true });
  const threadModel = options.threadModel ?? builtinThreadModel();
  const serializations = new SerializationTable(options.serializations ?? builtinSerializations());
  const eventCodec = serializationEventCodec(serializations);
  let destroyed = false;

  function managedConnection(
    url: Url,
    address: string,
    tls: ConnectionOptions | undefined,
  ): ManagedConnection<ExchangeClient> {
    const colon = address.lastIndexOf(":");
    const host = address.slice(0, colon).replace(/^\[|\]$/g, "");
    const port = Number(address.slice(colon + 1));
    const heartbeatTimeoutMs = optionalNumber(url, "heartbeat.timeout");
    const client = createExchangeClient({
      host,
      port,
      logger,
      heartbeatMs: url.number("heartbeat", DEFAULT_HEARTBEAT_MS),
      ...(heartbeatTimeoutMs === undefined ? {} : { heartbeatTimeoutMs }),
      connectTimeoutMs: url.number("connect.timeout", DEFAULT_CONNECT_TIMEOUT_MS),
      payloadLimit: url.number("payload", DEFAULT_PAYLOAD_BYTES),
      ...(tls === undefined ? {} : { tls }),
      deadlines,
      codec: eventCodec,
      ...(options.observer === undefined
        ? {}
        : { onConnection: (peer: string, up: boolean) => options.observer!.connection(peer, "client", up) }),
    });
    const { reconnect, periodMs } = reconnectSettingOf(url);
    return createManagedConnection(client, { logger, reconnect, backoff: { periodMs } });
  }

  /** Makes one link (dedicated, or the first reference's to a shared address, as Java does). */
  const createLink = (address: string, _index: number, settings: LinkSettings) =>
    managedConnection(settings.url, address, settings.tls);
  const forgetInvoker = (invoker: DubboInvoker): void => {
    references.delete(invoker);
  };

  function sharedPool(url: Url, profile: string | undefined): LinkPool {
    const key = profile ?? "";
    let pool = pools.get(key);
    if (pool === undefined) {
      pool = createConnectionPool<ExchangeClient, LinkSettings>({
        shareConnections: url.number("shareconnections", DEFAULT_SHARE_CONNECTIONS),
        create: createLink,
      });
      pools.set(key, pool);
    }
    return pool;
  }

  function clientTlsOf(url: Url, profile: string | undefined): Promise<ConnectionOptions | undefined> {
    if (profile === undefined) return Promise.resolve(undefined);
    let loaded = clientTls.get(profile);
    if (loaded === undefined) {
      loaded = loadClientTls(url, `refer to ${url.serviceInterface} at ${url.address}`);
      clientTls.set(profile, loaded);
      // A file fixed later is read again by the next refer.
      loaded.catch(() => clientTls.delete(profile));
    }
    return loaded;
  }

  /**
   * What a reference writes its requests in (Java 3's rule: `prefer.serialization`, then
   * `serialization`, then hessian2); a name this application lacks is reported and skipped.
   */
  function serializationOf(url: Url): Serialization {
    const configured = url.get("serialization");
    if (configured !== undefined && configured !== "" && serializations.byName(configured) === undefined) {
      logger.warn(
        `serialization=${configured} on ${url.serviceKey} at ${url.address} names no serialization here ` +
          `(registered: ${serializations.describe()}); its calls use another (register it with a plugin)`,
      );
    }
    return preferredSerialization(serializations, url.get("prefer.serialization"), configured);
  }

  function assertAlive(what: string, url: Url): void {
    if (destroyed) {
      throw new RpcError(
        `cannot ${what} ${url.serviceKey}: the dubbo protocol was destroyed`,
        Code.FailedPrecondition,
      );
    }
  }

  function serverFor(url: Url): Promise<DubboServer> {
    return servers.serverFor(url, (host, port, address) =>
      loadServerTls(url, `export ${url.serviceKey} on ${url.protocol}://${address}`).then((tls) => {
        const profile = tlsProfile(url);
        return createDubboServer({
          url,
          host,
          port,
          logger,
          shutdownWaitMs: url.number("shutdown.wait", options.shutdownWaitMs ?? DEFAULT_SHUTDOWN_WAIT_MS),
          observer: options.observer,
          threadModel,
          serializations,
          ...(tls === undefined ? {} : { tls }),
          ...(profile === undefined ? {} : { tlsProfile: profile }),
        });
      }),
    );
  }

  const protocol: DubboProtocol = {
    name: DUBBO_PROTOCOL,
    defaultPort: DEFAULT_DUBBO_PORT,
    get invokerCount() {
      return references.size;
    },
    get serverAddresses() {
      return servers.addresses;
    },
    async serverStats() {
      const stats: ServerStats[] = [];
      for (const server of await servers.running()) {
        stats.push({
          address: server.address,
          connections: server.exchange.channels.size,
          inFlight: server.exchange.inFlight,
          services: server.table.keys,
        });
      }
      return stats;
    },
    async export(invoker) {
      assertAlive("export", invoker.url);
      return servers.exportOn(await serverFor(invoker.url), invoker, exporters);
    },
    async refer(url) {
      assertAlive("refer to", url);
      reconnectSettingOf(url); // a bad `reconnect` fails here rather than at the first reconnect
      const serialization = serializationOf(url);
      const lazy = url.boolean("lazy", DEFAULT_LAZY);
      const connections = url.number("connections", DEFAULT_CONNECTIONS);
      const profile = tlsProfile(url);
      const tls = await clientTlsOf(url, profile);
      assertAlive("refer to", url);
      // Lazy: the holder keeps these options and the address, nothing more, until the first call.
      const holder = createConnectionHolder<ExchangeClient, LinkSettings>({
        connections,
        ...(connections <= 0 ? { pool: sharedPool(url, profile) } : {}),
        settings: { url, tls },
        create: createLink,
        lazy,
        isUsable: isUsableLink,
        label: url.serviceInterface,
      });
      holder.add(url.address);
      try {
        await holder.connectAll({ check: url.boolean("check", DEFAULT_CHECK) });
      } catch (error) {
        await holder.close();
        throw error;
      }
      const invoker = new DubboInvoker(url, holder, {
        serialization,
        serializations,
        onDestroy: forgetInvoker,
      });
      references.add(invoker);
      return invoker;
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      // Servers first: they send READONLY and drain in-flight calls while the services still exist.
      await servers.closeAll();
      await Promise.all([...exporters].map((e) => e.unexport()));
      await Promise.all([...references].map((r) => r.destroy()));
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      pools.clear();
    },
  };
  return protocol;
}
