import { type ClientHttp2Session, connect, type SecureClientSessionOptions } from "node:http2";
import { Code, type Logger, RpcError } from "../../core/index.js";
import { type KeepaliveSetting, startKeepalive } from "./keepalive.js";

export interface ClientConnectionOptions {
  /** `host:port` of the provider. */
  readonly address: string;
  readonly logger: Logger;
  readonly connectTimeoutMs: number;
  /** Connect with TLS (ALPN `h2`) instead of h2c. */
  readonly tls?: SecureClientSessionOptions | undefined;
  /** PINGs on the connection, closed when one goes unanswered (see {@link KeepaliveSetting}). */
  readonly keepalive: KeepaliveSetting;
}

/**
 * One HTTP/2 connection to a provider, shared by every reference of the protocol to that address:
 * connected on first use, connected again on the next call after it closed or received GOAWAY
 * (HTTP/2 multiplexes, so one connection carries all concurrent calls). Its keepalive PINGs
 * find a provider that stopped answering: the connection is destroyed, failing its calls with
 * UNAVAILABLE, and the next call connects again.
 */
export class ClientConnection {
  readonly address: string;
  readonly authority: string;
  readonly #options: ClientConnectionOptions;
  #session: Promise<ClientHttp2Session> | undefined;
  #live: ClientHttp2Session | undefined;
  #closed = false;
  #lastConnectFailed = false;

  constructor(options: ClientConnectionOptions) {
    this.#options = options;
    this.address = options.address;
    this.authority = `${options.tls === undefined ? "http" : "https"}://${options.address}`;
  }

  get scheme(): "http" | "https" {
    return this.#options.tls === undefined ? "http" : "https";
  }

  /** Whether a session is up now. */
  get isConnected(): boolean {
    return this.#live !== undefined && !this.#live.closed && !this.#live.destroyed;
  }

  /** The session calls can use now, without waiting for `session()`; undefined while connecting or down. */
  get live(): ClientHttp2Session | undefined {
    return this.#closed || !this.isConnected ? undefined : this.#live;
  }

  /** Connected, or worth a try: the last attempt to connect did not fail. */
  get isUsable(): boolean {
    return !this.#closed && (this.isConnected || !this.#lastConnectFailed);
  }

  session(): Promise<ClientHttp2Session> {
    if (this.#closed) {
      return Promise.reject(new RpcError(`the connection to ${this.address} was closed`, Code.Unavailable));
    }
    this.#session ??= this.#connect();
    return this.#session;
  }

  #connect(): Promise<ClientHttp2Session> {
    const { address, connectTimeoutMs, logger } = this.#options;
    return new Promise<ClientHttp2Session>((resolve, reject) => {
      const session = connect(this.authority, {
        ...(this.#options.tls ?? {}),
        ...(this.#options.tls === undefined ? {} : { ALPNProtocols: ["h2"] }),
      });
      const timer = setTimeout(() => {
        session.destroy();
        failed(new Error(`no connection within ${connectTimeoutMs} ms (connect.timeout)`));
      }, connectTimeoutMs);
      timer.unref();
      const failed = (error: Error): void => {
        clearTimeout(timer);
        this.#lastConnectFailed = true;
        this.#forget(session);
        reject(
          new RpcError(
            `cannot connect to the triple provider at ${address}: ${error.message}`,
            Code.Unavailable,
            {
              cause: error,
            },
          ),
        );
      };
      session.once("error", failed);
      session.once("connect", () => {
        clearTimeout(timer);
        session.off("error", failed);
        session.on("error", (error) =>
          logger.debug("transport", `triple link to ${address}: ${error.message}`),
        );
        // An idle connection must not keep the process alive; calls in flight keep it alive themselves.
        session.unref();
        this.#lastConnectFailed = false;
        this.#live = session;
        const stopKeepalive = startKeepalive(session, this.#options.keepalive, address, (reason) => {
          logger.warn(reason.message);
          this.#forget(session);
          session.destroy(reason);
        });
        session.once("close", stopKeepalive);
        resolve(session);
      });
      session.once("close", () => this.#forget(session));
      session.once("goaway", () => this.#forget(session));
    });
  }

  /** The next call opens a new session; streams still open on this one finish there. */
  #forget(session: ClientHttp2Session): void {
    if (this.#live === session) this.#live = undefined;
    this.#session?.then(
      (current) => {
        if (current === session) this.#session = undefined;
      },
      () => {
        this.#session = undefined;
      },
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#session;
    this.#session = undefined;
    const session = await pending?.catch(() => undefined);
    if (session === undefined || session.destroyed) return;
    // Held again while closing: an unreferenced session lets the process exit with `close()` pending.
    session.ref();
    await new Promise<void>((resolve) => session.close(resolve));
  }
}
