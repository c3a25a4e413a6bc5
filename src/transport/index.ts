// Transport: sockets over node:net / node:tls, with the protocol's framer injected. Channels with
// coalesced writes and real backpressure, a server with an `accepts` limit, a client with a connect
// timeout, and SOFARPC-style connection management (managed links that reconnect every period,
// a shared ref-counted pool, a per-reference holder). It knows nothing of frames' layout, services
// or bodies.
export { type Backoff, type BackoffOptions, createBackoff } from "./backoff.js";
export { type Channel, type ChannelHandler, type ChannelOptions, createChannel } from "./channel.js";
export { connectTransport, formatHostPort, type TransportClientOptions } from "./client.js";
export {
  type ConnectionHolder,
  type ConnectionHolderOptions,
  type ConnectionSets,
  createConnectionHolder,
} from "./connection-holder.js";
export {
  type ConnectionLease,
  type ConnectionPool,
  type ConnectionPoolOptions,
  createConnectionPool,
} from "./connection-pool.js";
export type { FrameDecoder, Framer, FrameSink } from "./framer.js";
export { consoleLogger, type Logger } from "./logger.js";
export {
  type Connectable,
  type ConnectionState,
  createManagedConnection,
  type ManagedConnection,
  type ManagedConnectionOptions,
} from "./managed-connection.js";
export {
  listenTransport,
  type ServerHandler,
  type TransportServer,
  type TransportServerOptions,
} from "./server.js";
