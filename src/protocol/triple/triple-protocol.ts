import type { SecureClientSessionOptions } from "node:http2";
import {
  Code,
  consoleLogger,
  DEFAULT_CHECK,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_LAZY,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_SHUTDOWN_WAIT_MS,
  DEFAULT_TRIPLE_PORT,
  DeadlineTimers,
  type Invoker,
  type Logger,
  type Protocol,
  RpcError,
  type Url,
} from "../../core/index.js";
import { builtinThreadModel, resolveExecutor, type ThreadModel } from "../shared/dispatch/thread-model.js";
import type { ProtocolObserver } from "../shared/protocol-observer.js";
import { type ServedExporter, ServerSet } from "../shared/server-set.js";
import { loadClientTls, loadServerTls, tlsProfile } from "../shared/tls-settings.js";
import { ClientConnection } from "./client-connection.js";
import { keepaliveOfUrl } from "./keepalive.js";
import { TRIPLE_PROTOCOL } from "./lazy-entry.js";
import { TripleInvoker } from "./triple-invoker.js";
import { createTripleServer, type TripleServer } from "./triple-server.js";

export interface TripleProtocolOptions {
  readonly logger?: Logger;
  /** Where the URL's `threadpool` and `dispatcher` names are looked up (default: the built-ins). */
  readonly threadModel?: ThreadModel;
  /** Told of each server's request pool and of the calls a full pool refuses. */
  readonly observer?: ProtocolObserver;
  /** The application's timer wheel for the references' deadlines (default: one of its own). */
  readonly deadlines?: DeadlineTimers;
}

interface SharedConnection {
  readonly connection: ClientConnection;
  refs: number;
}

/**
 * The tri protocol (Java's TripleProtocol), wrapper mode: `export` serves invokers on an HTTP/2
 * server per `host:port` (h2c, or TLS with the protocol's `ssl` settings), found by service key,
 * each call admitted by the server's executor (`dispatcher`, `threadpool`, `threads`, `queues`);
 * `refer` returns a {@link TripleInvoker} over one HTTP/2 connection per provider address, shared
 * by the application's references (HTTP/2 multiplexes). `destroy` sends GOAWAY, drains up to
 * `shutdown.wait`, and closes every connection.
 */
export function createTripleProtocol(options: TripleProtocolOptions = {}): Protocol {
  const logger = options.logger ?? consoleLogger;
  const threadModel = options.threadModel ?? builtinThreadModel();
  const servers = new ServerSet<TripleServer>();
  const connections = new Map<string, SharedConnection>();
  const exporters = new Set<ServedExporter>();
  const references = new Set<TripleInvoker>();
  const deadlines = options.deadlines ?? new DeadlineTimers({ keepAlive: true });
  let destroyed = false;

  function assertAlive(what: string, url: Url): void {
    if (destroyed) {
      throw new RpcError(
        `cannot ${what} ${url.serviceKey}: the tri protocol was destroyed`,
        Code.FailedPrecondition,
      );
    }
  }

  function serverFor(url: Url): Promise<TripleServer> {
    return servers.serverFor(url, async (host, port, address) => {
      // Resolved before listening, so a bad `threadpool`/`threads` fails the export, not a call.
      const executor = resolveExecutor(url, threadModel);
      const tls = await loadServerTls(url, `export ${url.serviceKey} on tri://${address}`);
      return createTripleServer({
        host,
        port,
        logger,
        payloadLimit: url.number("payload", DEFAULT_PAYLOAD_BYTES),
        shutdownWaitMs: url.number("shutdown.wait", DEFAULT_SHUTDOWN_WAIT_MS),
        tls,
        tlsProfile: tlsProfile(url),
        executor,
        deadlines,
        observer: options.observer,
      });
    });
  }

  async function connectionFor(url: Url): Promise<SharedConnection> {
    const profile = tlsProfile(url);
    const key = `${profile ?? ""}|${url.address}`;
    const existing = connections.get(key);
    if (existing !== undefined) {
      existing.refs++;
      return existing;
    }
    const tls = await loadClientTls(url, `refer to ${url.serviceInterface} at ${url.address}`);
    const again = connections.get(key);
    if (again !== undefined) {
      again.refs++;
      return again;
    }
    const shared: SharedConnection = {
      connection: new ClientConnection({
        address: url.address,
        logger,
        connectTimeoutMs: url.number("connect.timeout", DEFAULT_CONNECT_TIMEOUT_MS),
        tls: tls as SecureClientSessionOptions | undefined,
        keepalive: keepaliveOfUrl(url),
      }),
      refs: 1,
    };
    connections.set(key, shared);
    return shared;
  }

  async function release(url: Url, shared: SharedConnection): Promise<void> {
    shared.refs--;
    if (shared.refs > 0) return;
    const key = `${tlsProfile(url) ?? ""}|${url.address}`;
    if (connections.get(key) === shared) connections.delete(key);
    await shared.connection.close();
  }

  return {
    name: TRIPLE_PROTOCOL,
    defaultPort: DEFAULT_TRIPLE_PORT,
    async export(invoker: Invoker): Promise<ServedExporter> {
      assertAlive("export", invoker.url);
      return servers.exportOn(await serverFor(invoker.url), invoker, exporters);
    },
    async refer(url: Url): Promise<Invoker> {
      assertAlive("refer to", url);
      const shared = await connectionFor(url);
      const invoker: TripleInvoker = new TripleInvoker(url, {
        connection: shared.connection,
        deadlines,
        release: async () => {
          references.delete(invoker);
          await release(url, shared);
        },
      });
      if (url.boolean("check", DEFAULT_CHECK) && !url.boolean("lazy", DEFAULT_LAZY)) {
        try {
          await shared.connection.session();
        } catch (error) {
          await invoker.destroy();
          throw error;
        }
      }
      references.add(invoker);
      return invoker;
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await servers.closeAll();
      await Promise.all([...exporters].map((e) => e.unexport()));
      await Promise.all([...references].map((r) => r.destroy()));
    },
  };
}
