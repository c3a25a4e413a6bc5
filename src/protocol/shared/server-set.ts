import { Code, type Exporter, type Invoker, RpcError, type Url } from "../../core/index.js";
import { formatHostPort } from "../../transport/index.js";
import {
  type ExportedService,
  type ExporterTable,
  exportedMethodsOf,
  providerServiceKey,
} from "./exporter-table.js";
import { tlsProfile } from "./tls-settings.js";

/** What a protocol's provider server must offer to be shared by the services exported on it. */
export interface SharedServer {
  /** The port it bound (the real one when the URL asked for port 0). */
  readonly port: number;
  /** `host:port` it serves, for messages. */
  readonly address: string;
  /** The TLS setup it serves (see `tlsProfile`), `undefined` for plain TCP. */
  readonly tlsProfile: string | undefined;
  /** The services exported on it, by service key. */
  readonly table: ExporterTable;
  close(): Promise<void>;
}

/** What `export` returns: the exporter and the URL it really serves on (the bound port). */
export interface ServedExporter extends Exporter {
  readonly url: Url;
}

/**
 * A protocol's provider servers, one per `host:port` (the URL's `bind.ip`/`bind.port` or its own),
 * shared by every service exported there: the first export starts it, later ones find it, also by
 * the port it bound when they named port 0. A server that fails to start is forgotten, so the next
 * export tries again.
 */
export class ServerSet<S extends SharedServer> {
  readonly #servers = new Map<string, Promise<S>>();

  /** `host:port` of every server started or starting. */
  get addresses(): string[] {
    return [...this.#servers.keys()];
  }

  /** The server for `url`'s bind address, started with `start(host, port, address)` when there is none. */
  serverFor(url: Url, start: (host: string, port: number, address: string) => Promise<S>): Promise<S> {
    const host = url.get("bind.ip") ?? url.host;
    const port = url.has("bind.port") ? url.number("bind.port", 0) : url.port;
    const key = formatHostPort(host, port);
    let server = this.#servers.get(key);
    if (server === undefined) {
      server = start(host, port, key);
      this.#servers.set(key, server);
      const pending = server;
      server.then(
        (s) => {
          const bound = formatHostPort(host, s.port);
          if (!this.#servers.has(bound)) this.#servers.set(bound, pending);
        },
        () => this.#servers.delete(key),
      );
    }
    return server;
  }

  /** Every server that started, once each. */
  async running(): Promise<S[]> {
    const started = new Set<S>();
    for (const entry of this.#servers.values()) {
      const server = await entry.catch(() => undefined);
      if (server !== undefined) started.add(server);
    }
    return [...started];
  }

  /**
   * Serves `invoker` on `server` (found or started by {@link serverFor}) under its service key and
   * adds its exporter to `exporters`; unexporting the server's last service closes the server.
   */
  exportOn(server: S, invoker: Invoker, exporters: Set<ServedExporter>): ServedExporter {
    if (server.tlsProfile !== tlsProfile(invoker.url)) {
      throw new RpcError(
        `cannot export ${invoker.url.serviceKey} at ${server.address}: the server there was started ` +
          `${server.tlsProfile === undefined ? "without TLS" : "with other TLS settings"}; give services on one port the same protocol \`ssl\` settings, or another port`,
        Code.FailedPrecondition,
      );
    }
    // With `bind.port` the URL's own port is the one registered (Java's DUBBO_PORT_TO_REGISTRY);
    // otherwise it is the bound one (port 0 binds a free port).
    const url = invoker.url.has("bind.port")
      ? invoker.url.withParams({ "bind.port": String(server.port) })
      : invoker.url.with({ port: server.port });
    const path = url.path || url.serviceInterface;
    const key = providerServiceKey(path, url.get("group"), url.get("version"));
    if (server.table.has(key)) {
      throw new RpcError(
        `${key} is already exported at ${server.address}; unexport it first or export another group/version`,
        Code.AlreadyExists,
      );
    }
    const service: ExportedService = { key, path, url, invoker, methods: exportedMethodsOf(invoker) };
    server.table.add(service);
    let unexported = false;
    const exporter: ServedExporter = {
      invoker,
      url,
      unexport: async () => {
        if (unexported) return;
        unexported = true;
        exporters.delete(exporter);
        server.table.remove(service);
        // The last service of a server takes the server (and its port) with it.
        if (server.table.size === 0) await this.close(server);
        await invoker.destroy();
      },
    };
    exporters.add(exporter);
    return exporter;
  }

  /** Closes one server (its last service was unexported) and forgets every address it had. */
  async close(server: S): Promise<void> {
    for (const [key, entry] of this.#servers) {
      if ((await entry.catch(() => undefined)) === server) this.#servers.delete(key);
    }
    await server.close();
  }

  /** Closes every server (the protocol is destroyed). */
  async closeAll(): Promise<void> {
    const running = await this.running();
    this.#servers.clear();
    await Promise.all(running.map((s) => s.close()));
  }
}
