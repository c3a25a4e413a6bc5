// The tri protocol (Dubbo 3's Triple): gRPC framing over node:http2, Dubbo's headers, and wrapper
// mode (Java interfaces without IDL, each argument Hessian 2 in a TripleRequestWrapper).

export { createProtoClient, type ProtoClientHandle, type ProtoClientOptions } from "./proto-client.js";
export { createProtoServer, type ProtoServer, type ProtoServerOptions } from "./proto-server.js";
export {
  defineProtoService,
  type ProtoCallContext,
  type ProtoCallOptions,
  type ProtoClient,
  type ProtoImplementation,
  type ProtoService,
} from "./proto-service.js";
export {
  createTripleProtocol,
  TRIPLE_PROTOCOL,
} from "./triple-protocol.js";
export {
  decodeRequestWrapper,
  decodeResponseWrapper,
  encodeRequestWrapper,
  encodeResponseWrapper,
} from "./wrapper-codec.js";
