// Exchange: Dubbo 2 requests and responses over transport channels. The 16-byte header codec,
// 64-bit (bigint) request ids, a consumer client with a pending map, per-call timeouts, heartbeats
// and the READONLY event, a provider server that dispatches to the protocol's handler, answers
// heartbeats and shuts down gracefully, and the one mapping of Dubbo status bytes to error codes.
// Bodies stay opaque Buffers: the protocol layer serializes them.
export {
  decodeHessianString,
  type EventCodec,
  encodeHessianString,
  hessian2EventCodec,
  READONLY_EVENT,
} from "./event-codec.js";
export {
  createExchangeClient,
  type ExchangeClient,
  type ExchangeClientOptions,
} from "./exchange-client.js";
export {
  createExchangeServer,
  type ExchangeServer,
  type ExchangeServerOptions,
  type RequestHandler,
} from "./exchange-server.js";
export * from "./header.js";
export {
  createHeartbeat,
  type HeartbeatOptions,
  type HeartbeatTimer,
  resolveHeartbeat,
} from "./heartbeat.js";
export type {
  CallLabels,
  ErrorReply,
  OkReply,
  PendingReply,
  Request,
  Response,
  ServerRequest,
} from "./message.js";
export { createPendingCalls, type PendingCalls, type ResponseReader } from "./pending-calls.js";
export { codeFromStatus, Status, statusFromCode, statusName } from "./status.js";
