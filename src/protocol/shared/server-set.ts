import type { Url } from "../../core/index.js";
import { formatHostPort } from "../../transport/index.js";

/** What a protocol's provider server must offer to be shared by the services exported on it. */
export interface SharedServer {
  /** The port it bound (the real one when the URL asked for port 0). */
  readonly port: number;
  close(): Promise<void>;
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
