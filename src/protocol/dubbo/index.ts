// The dubbo protocol: Dubbo 2 framing and exchange, request/response bodies exactly as Java's
// DubboCodec writes them, the consumer invoker, the provider server (on the shared thread model,
// exporter table and TLS settings of protocol/shared), graceful shutdown.
export { BodyOutputSlot } from "./codec/body-output.js";
export { intVersion, supportsResponseAttachments } from "./codec/dubbo-version.js";
export {
  encodeRequestBody,
  type RequestFields,
  type RequestHead,
  readRequestHead,
  readRequestTail,
} from "./codec/request-body.js";
export {
  type DecodedResponse,
  decodeResponseBody,
  encodeExceptionResponse,
  encodeValueResponse,
  ResponseFlag,
} from "./codec/response-body.js";
export { DubboInvoker } from "./dubbo-invoker.js";
export {
  createDubboProtocol,
  DUBBO_PROTOCOL,
  type DubboExporter,
  type DubboProtocol,
  type DubboProtocolOptions,
  type ServerStats,
} from "./dubbo-protocol.js";
