import {
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2Server,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from "node:http2";
import type { AddressInfo } from "node:net";
import type { TlsOptions } from "node:tls";
import { Code, type DeadlineTimers, type Logger } from "../../core/index.js";
import type { Executor } from "../shared/dispatch/executor.js";
import { ExporterTable } from "../shared/exporter-table.js";
import type { ProtocolObserver } from "../shared/protocol-observer.js";
import { serveIdlCall } from "./proto-provider.js";
import { protoMethodOfPath } from "./proto-service.js";
import { exportedFor, parsePath, sendStatus, serveStream } from "./provider-stream.js";

export interface TripleServerOptions {
  readonly host: string;
  readonly port: number;
  readonly logger: Logger;
  readonly payloadLimit: number;
  /** ms the server lets calls in flight finish at shutdown before it drops their connections. */
  readonly shutdownWaitMs: number;
  /** Serve HTTP/2 over TLS (ALPN `h2`) instead of h2c. */
  readonly tls?: TlsOptions | undefined;
  /** The TLS settings' identity, so exports with other settings on this port fail clearly. */
  readonly tlsProfile?: string | undefined;
  /** Admits each call (the URL's `dispatcher`/`threadpool`); a call holds its slot until its stream closes. */
  readonly executor: Executor;
  /** The application's timer wheel, for the IDL calls' `grpc-timeout`. */
  readonly deadlines: DeadlineTimers;
  readonly observer?: ProtocolObserver | undefined;
}

export interface TripleServer {
  readonly port: number;
  /** `host:port` as bound. */
  readonly address: string;
  /** The services exported here; an IDL service's calls are served as protobuf, the others as wrappers. */
  readonly table: ExporterTable;
  readonly tlsProfile: string | undefined;
  /** Sends GOAWAY on every connection, lets calls in flight finish (up to `shutdownWaitMs`), closes. */
  close(): Promise<void>;
}

/** One call's stream as the executor runs it: served, and done when the stream closes. */
interface StreamTask {
  readonly stream: ServerHttp2Stream;
  readonly headers: IncomingHttpHeaders;
  /** The headers' raw name/value list, the cheaper read of the attachments. */
  readonly rawHeaders: readonly string[] | undefined;
}

/**
 * An HTTP/2 server (h2c, or TLS) serving the Triple calls of the services in its table. Each call
 * goes through the executor when its headers arrive (as Java's Triple server hands a stream to the
 * service's executor at its metadata); a full executor answers RESOURCE_EXHAUSTED at once.
 */
export async function createTripleServer(options: TripleServerOptions): Promise<TripleServer> {
  const table = new ExporterTable();
  const sessions = new Set<Http2Session>();
  const server: Http2Server | Http2SecureServer =
    options.tls === undefined
      ? createServer()
      : createSecureServer({ ...options.tls, ALPNProtocols: ["h2"] });
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
    session.on("error", (error) => options.logger.debug("transport", `triple session: ${error.message}`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error) => options.logger.warn(`triple server error: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  const address = `${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;
  const { logger } = options;
  const context = {
    table,
    address,
    payloadLimit: options.payloadLimit,
    deadlines: options.deadlines,
    onStreamError: (error: Error) =>
      logger.debug("transport", `triple stream at ${address}: ${error.message}`),
  };
  const { executor, observer } = options;
  const serve = ({ stream, headers, rawHeaders }: StreamTask): Promise<void> =>
    new Promise<void>((done) => {
      // A call that waited in the queue may have been canceled meanwhile: its slot frees at once.
      if (stream.closed || stream.destroyed) {
        done();
        return;
      }
      // The path is parsed and its service looked up once, here, for both modes.
      const target = parsePath(headers[":path"]);
      const exported = target === undefined ? undefined : exportedFor(table, headers, target.path);
      const idlMethods = exported?.invoker.definition?.idl?.methods;
      const method =
        idlMethods === undefined || target === undefined
          ? undefined
          : protoMethodOfPath(idlMethods, target.method);
      if (exported !== undefined && method !== undefined && headers[":method"] === "POST") {
        stream.on("close", done);
        serveIdlCall(context, stream, headers, exported, method);
      } else serveStream(context, stream, headers, rawHeaders, target, exported, done);
    });
  server.on("stream", (stream, headers, _flags, rawHeaders?: string[]) => {
    if (executor.run(serve, { stream, headers, rawHeaders }) !== undefined) return;
    observer?.poolExhausted(address, executor.active, executor.queued);
    sendStatus(
      stream,
      Code.ResourceExhausted,
      `the provider at ${address} is busy: ${headers[":path"]} was refused because ${executor.active} calls ` +
        `are running and ${executor.queued} waiting (${executor.description}); raise \`threads\`/\`queues\` ` +
        "on the provider or add providers",
    );
  });
  observer?.threadPool(address, executor, true);
  let closing: Promise<void> | undefined;
  return {
    port,
    address,
    table,
    tlsProfile: options.tlsProfile,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // close() sends GOAWAY and ends each session once its streams are done.
        for (const session of sessions) session.close();
        const deadline = setTimeout(() => {
          for (const session of sessions) session.destroy();
        }, options.shutdownWaitMs);
        deadline.unref();
        server.once("close", () => {
          clearTimeout(deadline);
          observer?.threadPool(address, executor, false);
        });
      });
      return closing;
    },
  };
}
