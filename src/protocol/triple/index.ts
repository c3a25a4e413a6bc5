// The tri protocol (Dubbo 3's Triple): gRPC framing over node:http2, Dubbo's headers, wrapper mode
// (Java interfaces without IDL) and IDL mode (.proto services). This entry is light: the protocol
// itself (triple-protocol.ts) and the IDL client and server load by dynamic import on first use.

export { createProtoClient, createProtoServer, TRIPLE_PROTOCOL } from "./lazy-entry.js";
export type { ProtoClientHandle, ProtoClientOptions } from "./proto-client.js";
export type { ProtoServer, ProtoServerOptions } from "./proto-server.js";
export {
  defineProtoService,
  type ProtoCallContext,
  type ProtoCallOptions,
  type ProtoClient,
  type ProtoImplementation,
  type ProtoService,
  type ProtoServiceOptions,
} from "./proto-service.js";
