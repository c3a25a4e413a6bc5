import type { OutgoingHttpHeaders } from "node:http2";
import type { DescService } from "@bufbuild/protobuf";
import {
  answersOneMessage,
  Code,
  consoleLogger,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PAYLOAD_BYTES,
  type IdlMethod,
  type Logger,
  RpcError,
} from "../../core/index.js";
import { ClientConnection } from "./client-connection.js";
import { ACCEPTED_ENCODINGS } from "./grpc-frame.js";
import { formatGrpcTimeout } from "./grpc-timeout.js";
import { IdlCall } from "./idl-call.js";
import type { ProtoCallOptions, ProtoClient, ProtoService } from "./proto-service.js";
import {
  attachmentsToHeaders,
  GRPC_ACCEPT_ENCODING,
  GRPC_PROTO_CONTENT_TYPE,
  GRPC_TIMEOUT,
} from "./triple-headers.js";

export interface ProtoClientOptions {
  /** `host:port` of a Triple or gRPC server. */
  readonly address: string;
  /** Every call's deadline unless its options give one (default: none). */
  readonly timeoutMs?: number;
  /** Largest message accepted or sent (default 8 MiB). */
  readonly payload?: number;
  readonly connectTimeoutMs?: number;
  readonly logger?: Logger;
}

/** An IDL-mode consumer and the HTTP/2 connection its calls share. */
export interface ProtoClientHandle<S extends DescService> {
  readonly client: ProtoClient<S>;
  close(): Promise<void>;
}

/**
 * An IDL-mode consumer of `service` at `address`: one HTTP/2 connection, one stream per call,
 * `content-type: application/grpc+proto`, each message the protobuf bytes of the method's input.
 * Streams are async iterables: request iterables are pulled only as the stream's buffer drains,
 * and breaking out of a response iterable resets the stream (the server sees CANCELLED).
 */
export function createProtoClient<S extends DescService>(
  service: ProtoService<S>,
  options: ProtoClientOptions,
): ProtoClientHandle<S> {
  const connection = new ClientConnection({
    address: options.address,
    logger: options.logger ?? consoleLogger,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
  });
  const limit = options.payload ?? DEFAULT_PAYLOAD_BYTES;
  const open = async (method: IdlMethod, callOptions: ProtoCallOptions): Promise<IdlCall> => {
    const what = `${service.typeName}/${method.name} to ${options.address}`;
    const session = await connection.session().catch((error: unknown) => {
      const cause = RpcError.from(error, Code.Unavailable);
      throw new RpcError(`${what}: ${cause.rawMessage}`, cause.code, { cause });
    });
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs;
    const headers: OutgoingHttpHeaders = {
      ":method": "POST",
      ":scheme": connection.scheme,
      ":authority": connection.address,
      ":path": `/${service.typeName}/${method.name}`,
      "content-type": GRPC_PROTO_CONTENT_TYPE,
      te: "trailers",
      [GRPC_ACCEPT_ENCODING]: ACCEPTED_ENCODINGS,
    };
    if (timeoutMs !== undefined) headers[GRPC_TIMEOUT] = formatGrpcTimeout(timeoutMs);
    if (callOptions.metadata !== undefined) attachmentsToHeaders(callOptions.metadata, headers);
    const call = new IdlCall(session.request(headers), method, limit, what);
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              call.cancel(
                new RpcError(`${what}: the deadline of ${timeoutMs} ms passed`, Code.DeadlineExceeded),
              ),
            timeoutMs,
          );
    const onAbort = (): void =>
      call.cancel(new RpcError(`${what}: the caller canceled the call`, Code.Canceled));
    callOptions.signal?.addEventListener("abort", onAbort, { once: true });
    call.onClose(() => {
      clearTimeout(timer);
      callOptions.signal?.removeEventListener("abort", onAbort);
    });
    return call;
  };
  const streamed = (
    method: IdlMethod,
    input: unknown,
    callOptions: ProtoCallOptions,
  ): AsyncIterable<unknown> => ({
    async *[Symbol.asyncIterator]() {
      const call = await open(method, callOptions);
      call.send(input, "identity");
      try {
        yield* call.responses();
      } finally {
        callOptions.onMetadata?.({ ...call.attachments });
      }
    },
  });
  const client: Record<string, unknown> = {};
  for (const method of service.definition.idl!.methods.values()) {
    client[method.localName] = answersOneMessage(method.kind)
      ? async (input: unknown, o: ProtoCallOptions = {}) => {
          const call = await open(method, o);
          call.send(input, "identity");
          try {
            return await call.only();
          } finally {
            o.onMetadata?.({ ...call.attachments });
          }
        }
      : (input: unknown, o: ProtoCallOptions = {}) => streamed(method, input, o);
  }
  return { client: client as ProtoClient<S>, close: () => connection.close() };
}
