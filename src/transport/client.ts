import { connect as netConnect, type Socket } from "node:net";
import { type ConnectionOptions, connect as tlsConnect } from "node:tls";
import {
  Code,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_SEND_QUEUE_BYTES,
  RpcError,
} from "../core/index.js";
import { type Channel, type ChannelHandler, createChannel } from "./channel.js";
import type { Framer } from "./framer.js";

export interface TransportClientOptions {
  readonly host: string;
  readonly port: number;
  /** `connect.timeout`, ms. */
  readonly connectTimeoutMs?: number;
  /** `payload`, bytes. */
  readonly payloadLimit?: number;
  /** `sendqueue`, bytes. */
  readonly sendQueueLimit?: number;
  /** Connect with TLS using these options (ca, servername, cert, key, …) instead of plain TCP. */
  readonly tls?: ConnectionOptions;
  readonly handler: ChannelHandler;
  /** The protocol's framing of the connection's bytes. */
  readonly framer: Framer;
}

/** `host:port`, with brackets around IPv6 hosts. */
export function formatHostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Opens one client connection. Rejects with `Unavailable` when the peer refuses, or when it does not
 * answer (or finish the TLS handshake) within `connectTimeoutMs`.
 */
export function connectTransport(options: TransportClientOptions): Promise<Channel> {
  const address = formatHostPort(options.host, options.port);
  const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const channelOptions = {
    payloadLimit: options.payloadLimit ?? DEFAULT_PAYLOAD_BYTES,
    sendQueueLimit: options.sendQueueLimit ?? DEFAULT_SEND_QUEUE_BYTES,
    framer: options.framer,
  };
  return new Promise<Channel>((resolve, reject) => {
    let socket: Socket;
    const onReady = (): void => {
      clearTimeout(timer);
      socket.off("error", onError);
      socket.setNoDelay(true);
      socket.setKeepAlive(true);
      resolve(createChannel(socket, options.handler, channelOptions, address));
    };
    if (options.tls) {
      socket = tlsConnect({ ...options.tls, host: options.host, port: options.port }, onReady);
    } else {
      socket = netConnect({ host: options.host, port: options.port, noDelay: true }, onReady);
    }
    const onError = (error: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(
        new RpcError(`cannot connect to ${address}: ${error.message}`, Code.Unavailable, { cause: error }),
      );
    };
    socket.once("error", onError);
    const timer = setTimeout(() => {
      socket.off("error", onError);
      socket.on("error", () => {});
      socket.destroy();
      reject(
        new RpcError(
          `connecting to ${address} timed out after ${timeoutMs} ms (set \`connect.timeout\` to wait longer)`,
          Code.Unavailable,
        ),
      );
    }, timeoutMs);
    timer.unref();
  });
}
