import {
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2Server,
  type Http2Session,
} from "node:http2";
import type { AddressInfo } from "node:net";
import type { TlsOptions } from "node:tls";
import type { Logger } from "../../core/index.js";
import { ExporterTable } from "../shared/exporter-table.js";
import { serveIdlCall } from "./proto-provider.js";
import { protoMethodOfPath } from "./proto-service.js";
import { exportedFor, serveStream } from "./provider-stream.js";

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

/** An HTTP/2 server (h2c, or TLS) serving the Triple calls of the services in its table. */
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
  const context = { table, address, payloadLimit: options.payloadLimit, logger: options.logger };
  server.on("stream", (stream, headers) => {
    const path = headers[":path"] ?? "";
    const slash = path.lastIndexOf("/");
    const exported = slash > 0 ? exportedFor(table, headers, path.slice(1, slash)) : undefined;
    const idl = exported?.invoker.definition?.idl;
    const method = idl === undefined ? undefined : protoMethodOfPath(idl.methods, path.slice(slash + 1));
    if (exported !== undefined && method !== undefined && headers[":method"] === "POST")
      serveIdlCall(context, stream, headers, exported, method);
    else serveStream(context, stream, headers);
  });
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
        server.once("close", () => clearTimeout(deadline));
      });
      return closing;
    },
  };
}
