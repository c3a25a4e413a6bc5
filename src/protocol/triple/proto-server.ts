import type { DescService } from "@bufbuild/protobuf";
import {
  consoleLogger,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_SHUTDOWN_WAIT_MS,
  DEFAULT_TRIPLE_PORT,
  DeadlineTimers,
  type Logger,
  Url,
} from "../../core/index.js";
import { directExecutor } from "../shared/dispatch/executor.js";
import { createIdlProviderInvoker } from "../shared/idl-provider-invoker.js";
import { loadServerTlsFiles, type ServerTlsFiles } from "../shared/tls-settings.js";
import { loadProtobufRuntime, type ProtoImplementation, type ProtoService } from "./proto-service.js";
import { createTripleServer } from "./triple-server.js";

export interface ProtoServerOptions {
  readonly host?: string;
  /** Default 50051; 0 binds a free port. */
  readonly port?: number;
  /** Largest message accepted or sent (default 8 MiB). */
  readonly payload?: number;
  /** ms calls in flight may take to finish at `close()` (default as `shutdown.wait`). */
  readonly shutdownWaitMs?: number;
  /** Serve HTTP/2 over TLS (ALPN `h2`) with these PEM files, read at start (default: h2c). */
  readonly ssl?: ServerTlsFiles;
  readonly logger?: Logger;
}

export interface ProtoServer {
  readonly port: number;
  readonly address: string;
  /** Serves `service` with `implementation`; throws if a method lacks its handler or the service is served already. */
  add<S extends DescService>(service: ProtoService<S>, implementation: ProtoImplementation<S>): void;
  /** GOAWAY on every connection, calls in flight finish (up to `shutdownWaitMs`), then closed. */
  close(): Promise<void>;
}

/** The IDL server behind `createProtoServer` of lazy-entry.ts, which documents it. */
export async function createProtoServer(options: ProtoServerOptions = {}): Promise<ProtoServer> {
  await loadProtobufRuntime();
  const host = options.host ?? "0.0.0.0";
  const port = options.port ?? DEFAULT_TRIPLE_PORT;
  const tls =
    options.ssl === undefined
      ? undefined
      : await loadServerTlsFiles(options.ssl, `start the proto server on ${host}:${port}`);
  const server = await createTripleServer({
    host,
    port,
    tls,
    logger: options.logger ?? consoleLogger,
    payloadLimit: options.payload ?? DEFAULT_PAYLOAD_BYTES,
    shutdownWaitMs: options.shutdownWaitMs ?? DEFAULT_SHUTDOWN_WAIT_MS,
    // No application, so no thread model: handlers run as calls arrive.
    executor: directExecutor,
    // Its own timer wheel, keeping the process alive while a call waits, as a server's timer would.
    deadlines: new DeadlineTimers({ keepAlive: true }),
  });
  return {
    port: server.port,
    address: server.address,
    add(service, implementation) {
      const key = service.typeName;
      if (server.table.has(key)) throw new TypeError(`${key} is served already at ${server.address}`);
      // The interface beside the path, so a request naming either finds the service.
      const url = Url.parse(`tri://${server.address}/${key}?interface=${service.definition.interfaceName}`);
      const invoker = createIdlProviderInvoker(service.definition, implementation, url);
      server.table.add({ key, path: key, url, invoker, methods: new Map() });
    },
    close: () => server.close(),
  };
}
