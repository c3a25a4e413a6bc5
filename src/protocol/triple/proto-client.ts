import type { OutgoingHttpHeaders } from "node:http2";
import type { DescService } from "@bufbuild/protobuf";
import {
  answersOneMessage,
  Code,
  consoleLogger,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PAYLOAD_BYTES,
  DeadlineTimers,
  type IdlMethod,
  type Logger,
  RpcError,
  type TimedEntry,
} from "../../core/index.js";
import { type ClientTlsFiles, loadClientTlsFiles } from "../shared/tls-settings.js";
import { ClientConnection } from "./client-connection.js";
import { ACCEPTED_ENCODINGS, type MessageEncoding } from "./grpc-frame.js";
import { formatGrpcTimeout } from "./grpc-timeout.js";
import { IdlCall } from "./idl-call.js";
import { keepaliveSetting } from "./keepalive.js";
import type { ProtoCallOptions, ProtoClient, ProtoService } from "./proto-service.js";
import {
  attachmentsToHeaders,
  GRPC_ACCEPT_ENCODING,
  GRPC_ENCODING,
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
  /** ms between two keepalive PINGs on the connection; 0 sends none (default 60000, Java's `heartbeat`). */
  readonly heartbeatMs?: number;
  /** ms a PING may go unanswered before the connection is closed and its calls fail (default 3 × heartbeat, Java's `close.timeout`). */
  readonly closeTimeoutMs?: number;
  /** How request messages are sent (`grpc-encoding`); responses come back as the server chooses. Default identity. */
  readonly compression?: MessageEncoding;
  /** Connect with TLS (ALPN `h2`): `true` trusts Node's bundled CAs, or give the files (default: h2c). */
  readonly ssl?: ClientTlsFiles | true;
  readonly logger?: Logger;
}

/** An IDL-mode consumer and the HTTP/2 connection its calls share. */
export interface ProtoClientHandle<S extends DescService> {
  readonly client: ProtoClient<S>;
  close(): Promise<void>;
}

/** The IDL client behind `createProtoClient` of lazy-entry.ts, which documents it. */
export async function createProtoClient<S extends DescService>(
  service: ProtoService<S>,
  options: ProtoClientOptions,
): Promise<ProtoClientHandle<S>> {
  await service.definition.idl.ready();
  const where = `the proto client of ${service.typeName} at ${options.address}`;
  const encoding = options.compression ?? "identity";
  if (encoding !== "identity" && encoding !== "gzip") {
    throw new RpcError(
      `${where}: compression "${encoding}" is not one of identity, gzip`,
      Code.InvalidArgument,
    );
  }
  const tls =
    options.ssl === undefined
      ? undefined
      : await loadClientTlsFiles(options.ssl === true ? {} : options.ssl, `connect ${where}`);
  const connection = new ClientConnection({
    address: options.address,
    logger: options.logger ?? consoleLogger,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    keepalive: keepaliveSetting(where, options.heartbeatMs, options.closeTimeoutMs),
    tls,
  });
  const limit = options.payload ?? DEFAULT_PAYLOAD_BYTES;
  // The calls' deadlines on one timer wheel, as an application's protocols share theirs. A
  // standalone client belongs to no application, so the wheel is the client's own: one timer per
  // distinct timeout however many calls wait, instead of a setTimeout and clearTimeout per call.
  const deadlines = new DeadlineTimers({ keepAlive: true });
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
    if (encoding !== "identity") headers[GRPC_ENCODING] = encoding;
    if (callOptions.metadata !== undefined) attachmentsToHeaders(callOptions.metadata, headers);
    const call = new IdlCall(session.request(headers), method, limit, what);
    const deadline: TimedEntry = {
      onDeadline: () =>
        call.cancel(new RpcError(`${what}: the deadline of ${timeoutMs} ms passed`, Code.DeadlineExceeded)),
    };
    if (timeoutMs !== undefined) deadlines.add(deadline, timeoutMs);
    const onAbort = (): void =>
      call.cancel(new RpcError(`${what}: the caller canceled the call`, Code.Canceled));
    callOptions.signal?.addEventListener("abort", onAbort, { once: true });
    call.onClose(() => {
      if (timeoutMs !== undefined) deadlines.delete(deadline, timeoutMs);
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
      call.send(input, encoding);
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
          call.send(input, encoding);
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
