import type { TlsOptions } from "node:tls";
import {
  DEFAULT_ACCEPTS,
  DEFAULT_BACKLOG,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_PAYLOAD_BYTES,
  type Url,
} from "../../core/index.js";
import type { SerializationTable } from "../../serialize/index.js";
import { formatHostPort, type Logger } from "../../transport/index.js";
import { resolveExecutor, type ThreadModel } from "../shared/dispatch/thread-model.js";
import { ExporterTable } from "../shared/exporter-table.js";
import type { ProtocolObserver } from "../shared/protocol-observer.js";
import { createExchangeServer, type ExchangeServer, type RequestHandler } from "./exchange/index.js";
import { createProviderHandler } from "./provider-handler.js";

/** One provider server (one `host:port`) and the services exported on it. */
export interface DubboServer {
  readonly table: ExporterTable;
  readonly port: number;
  /** `host:port` it listens on. */
  readonly address: string;
  readonly exchange: ExchangeServer;
  /** The TLS setup it serves (see `tlsProfile`), `undefined` for plain TCP. */
  readonly tlsProfile: string | undefined;
  /** Graceful: stop accepting, READONLY to every channel, drain up to `shutdown.wait`, close. */
  close(): Promise<void>;
}

export interface DubboServerOptions {
  /** The first export's URL: its server settings (threads, payload, heartbeat, …) make the server. */
  readonly url: Url;
  readonly host: string;
  readonly port: number;
  readonly shutdownWaitMs: number;
  readonly logger: Logger;
  /** Serve TLS with these node:tls options (already read from the URL's `ssl` files). */
  readonly tls?: TlsOptions;
  readonly tlsProfile?: string;
  readonly observer?: ProtocolObserver | undefined;
  /** Where the URL's `threadpool` and `dispatcher` names are looked up. */
  readonly threadModel: ThreadModel;
  /** The application's serializations, by the header id a request names. */
  readonly serializations: SerializationTable;
}

export async function createDubboServer(options: DubboServerOptions): Promise<DubboServer> {
  const { url, host, port, logger } = options;
  const table = new ExporterTable();
  // Resolved before listening, so a bad `threadpool`/`threads` fails the export, not a call.
  const executor = resolveExecutor(url, options.threadModel);
  const heartbeatTimeoutMs = url.has("heartbeat.timeout") ? url.number("heartbeat.timeout", 0) : undefined;
  let handler: RequestHandler | undefined;
  const exchange = await createExchangeServer({
    ...(host === "" || host === "0.0.0.0" ? {} : { host }),
    port,
    logger,
    accepts: url.number("accepts", DEFAULT_ACCEPTS),
    backlog: url.number("backlog", DEFAULT_BACKLOG),
    payloadLimit: url.number("payload", DEFAULT_PAYLOAD_BYTES),
    heartbeatMs: url.number("heartbeat", DEFAULT_HEARTBEAT_MS),
    ...(heartbeatTimeoutMs === undefined ? {} : { heartbeatTimeoutMs }),
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    ...(options.observer === undefined
      ? {}
      : { onConnection: (peer: string, up: boolean) => options.observer!.connection(peer, "server", up) }),
    // Set right below, before any I/O callback can deliver a request.
    handler: (request) => handler!(request),
  });
  const address = formatHostPort(exchange.host, exchange.port);
  handler = createProviderHandler({
    table,
    executor,
    address,
    logger,
    observer: options.observer,
    serializations: options.serializations,
  });
  options.observer?.threadPool(address, executor, true);
  let closing: Promise<void> | undefined;
  return {
    table,
    port: exchange.port,
    address,
    exchange,
    tlsProfile: options.tlsProfile,
    close() {
      closing ??= exchange.close({ waitMs: options.shutdownWaitMs }).finally(() => {
        options.observer?.threadPool(address, executor, false);
      });
      return closing;
    },
  };
}
