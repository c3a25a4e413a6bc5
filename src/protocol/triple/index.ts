// The tri protocol (Dubbo 3's Triple): gRPC framing over node:http2, Dubbo's headers, and wrapper
// mode (Java interfaces without IDL, each argument Hessian 2 in a TripleRequestWrapper).
export {
  createTripleProtocol,
  TRIPLE_PROTOCOL,
  type TripleExporter,
  type TripleProtocolOptions,
} from "./triple-protocol.js";
export {
  decodeRequestWrapper,
  decodeResponseWrapper,
  encodeRequestWrapper,
  encodeResponseWrapper,
  type RequestWrapper,
  type ResponseWrapper,
  WRAPPER_HESSIAN2,
} from "./wrapper-codec.js";
