import { createServer as createNetServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer, type TlsOptions } from "node:tls";
import {
  Code,
  DEFAULT_ACCEPTS,
  DEFAULT_BACKLOG,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_SEND_QUEUE_BYTES,
  RpcError,
} from "../core/index.js";
import { type Channel, type ChannelHandler, createChannel } from "./channel.js";
import type { Framer } from "./framer.js";
import { consoleLogger, type Logger } from "./logger.js";

export interface ServerHandler extends ChannelHandler {
  /** A peer connected and was accepted. */
  connected(channel: Channel): void;
}

export interface TransportServerOptions {
  /** Interface to bind; all interfaces when absent. */
  readonly host?: string;
  /** Port to bind; 0 picks a free one. */
  readonly port: number;
  /** `accepts`: most connections at once; 0 means no limit. Extra ones are closed and logged. */
  readonly accepts?: number;
  /** `backlog`: connections the kernel queues until they are accepted (it caps this at somaxconn). */
  readonly backlog?: number;
  /** `payload`, bytes. */
  readonly payloadLimit?: number;
  /** `sendqueue`, bytes per connection. */
  readonly sendQueueLimit?: number;
  /** Serve TLS with these options (key, cert, ca, requestCert, …) instead of plain TCP. */
  readonly tls?: TlsOptions;
  readonly logger?: Logger;
  readonly handler: ServerHandler;
  /** The protocol's framing of every accepted connection's bytes. */
  readonly framer: Framer;
}

export interface TransportServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  readonly host: string;
  readonly channels: ReadonlySet<Channel>;
  /** Stops accepting connections; open ones stay. */
  stopAccepting(): Promise<void>;
  /** Stops accepting and ends every connection. */
  close(): Promise<void>;
}

/** Binds a server socket and wraps every accepted connection in a {@link Channel}. */
export async function listenTransport(options: TransportServerOptions): Promise<TransportServer> {
  const accepts = options.accepts ?? DEFAULT_ACCEPTS;
  const logger = options.logger ?? consoleLogger;
  const channelOptions = {
    payloadLimit: options.payloadLimit ?? DEFAULT_PAYLOAD_BYTES,
    sendQueueLimit: options.sendQueueLimit ?? DEFAULT_SEND_QUEUE_BYTES,
    framer: options.framer,
  };
  const channels = new Set<Channel>();
  const sockets = new Set<Socket>();
  const handler = options.handler;
  const channelHandler: ChannelHandler = {
    frame: (channel, frame) => handler.frame(channel, frame),
    oversize: (channel, header, length) => handler.oversize(channel, header, length),
    garbage: (channel, bytes, reason) => handler.garbage(channel, bytes, reason),
    closed(channel, error) {
      channels.delete(channel);
      handler.closed(channel, error);
    },
  };

  const onConnection = (socket: Socket): void => {
    socket.setNoDelay(true);
    socket.on("error", () => {}); // reported through the channel's close; never an uncaught error
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    if (accepts > 0 && channels.size >= accepts) {
      logger.warn(
        `closed a connection from ${socket.remoteAddress}:${socket.remotePort}: the server on port ${port} ` +
          `reached its limit of ${accepts} connections (set \`accepts\` to raise it)`,
      );
      socket.destroy();
      return;
    }
    const channel = createChannel(socket, channelHandler, channelOptions);
    channels.add(channel);
    handler.connected(channel);
  };

  const server: Server = options.tls
    ? createTlsServer(options.tls, onConnection)
    : createNetServer({ noDelay: true }, onConnection);
  // TLS handshake failures (a plain client, a bad certificate) must not reach the process.
  server.on("tlsClientError", (error: Error, socket: Socket) =>
    logger.warn(
      `TLS handshake with ${socket.remoteAddress}:${socket.remotePort} on port ${port} failed: ${error.message.trim()}` +
        " (a client without TLS, or without the certificate this server requires?)",
    ),
  );

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(
        new RpcError(
          `cannot listen on ${options.host ?? "0.0.0.0"}:${options.port}: ${error.message} (set \`port\`)`,
          Code.Unavailable,
          { cause: error },
        ),
      );
    };
    server.once("error", onError);
    const listening = { port: options.port, host: options.host, backlog: options.backlog ?? DEFAULT_BACKLOG };
    server.listen(listening, () => {
      server.off("error", onError);
      server.on("error", (error) => logger.warn(`server on port ${port} failed: ${error.message}`, error));
      resolve();
    });
  });
  const bound = server.address();
  const port = typeof bound === "object" && bound !== null ? bound.port : options.port;
  const host = typeof bound === "object" && bound !== null ? bound.address : (options.host ?? "0.0.0.0");

  let stopped: Promise<void> | undefined;
  const stopAccepting = (): Promise<void> => {
    stopped ??= new Promise<void>((resolve) => server.close(() => resolve()));
    return stopped;
  };

  return {
    port,
    host,
    channels,
    stopAccepting,
    async close() {
      const done = stopAccepting();
      for (const channel of channels) channel.close();
      // Whatever has not finished its goodbye shortly is cut, so close() cannot hang on a silent peer.
      const cut = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, 1000);
      cut.unref();
      await done;
      clearTimeout(cut);
    },
  };
}
