import {
  type ClientHttp2Stream,
  constants,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from "node:http2";
import {
  create,
  type DescMethod,
  type DescService,
  fromBinary,
  type MessageInitShape,
  toBinary,
} from "@bufbuild/protobuf";
import {
  Code,
  consoleLogger,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PAYLOAD_BYTES,
  type Logger,
  RpcError,
} from "../../core/index.js";
import { type ClientTlsFiles, loadClientTlsFiles } from "../shared/tls-settings.js";
import { ClientConnection } from "./client-connection.js";
import { ACCEPTED_ENCODINGS, type MessageEncoding, messageEncodingOf } from "./grpc-frame.js";
import { codeOfGrpcStatus, codeOfHttpStatus, decodeGrpcMessage, GRPC_OK } from "./grpc-status.js";
import { formatGrpcTimeout } from "./grpc-timeout.js";
import { keepaliveSetting } from "./keepalive.js";
import { readMessages, writeMessage } from "./message-stream.js";
import type { ProtoCallOptions, ProtoClient, ProtoService } from "./proto-service.js";
import {
  attachmentsToHeaders,
  GRPC_ACCEPT_ENCODING,
  GRPC_ENCODING,
  GRPC_MESSAGE,
  GRPC_PROTO_CONTENT_TYPE,
  GRPC_STATUS,
  GRPC_TIMEOUT,
  headersToAttachments,
  headerText,
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

/** One call's stream: request messages go out as they are pulled, responses come in as read. */
class ProtoCall {
  readonly #what: string;
  readonly #stream: ClientHttp2Stream;
  readonly #method: DescMethod;
  readonly #limit: number;
  readonly #options: ProtoCallOptions;
  readonly #encoding: MessageEncoding;
  #headers: IncomingHttpHeaders = {};
  #trailers: IncomingHttpHeaders = {};
  #failure: RpcError | undefined;
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(
    stream: ClientHttp2Stream,
    method: DescMethod,
    limit: number,
    what: string,
    options: ProtoCallOptions,
    timeoutMs: number | undefined,
    encoding: MessageEncoding,
  ) {
    this.#stream = stream;
    this.#encoding = encoding;
    this.#method = method;
    this.#limit = limit;
    this.#what = what;
    this.#options = options;
    stream.on("response", (h) => {
      this.#headers = h;
    });
    stream.on("trailers", (t) => {
      this.#trailers = t;
    });
    stream.on("error", () => {});
    if (timeoutMs !== undefined) {
      this.#timer = setTimeout(
        () =>
          this.cancel(new RpcError(`${what}: the deadline of ${timeoutMs} ms passed`, Code.DeadlineExceeded)),
        timeoutMs,
      );
    }
    const onAbort = (): void =>
      this.cancel(new RpcError(`${what}: the caller canceled the call`, Code.Canceled));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    stream.once("close", () => {
      clearTimeout(this.#timer);
      options.signal?.removeEventListener("abort", onAbort);
    });
  }

  /** Resets the stream (RST_STREAM CANCEL); the call fails with `reason`. */
  cancel(reason: RpcError): void {
    this.#failure ??= reason;
    if (!this.#stream.closed) this.#stream.close(constants.NGHTTP2_CANCEL);
  }

  async send(requests: AsyncIterable<unknown>): Promise<void> {
    try {
      for await (const init of requests) {
        if (this.#failure !== undefined || this.#stream.closed) return;
        const input = this.#method.input;
        const message = create(input, init as MessageInitShape<typeof input>);
        await writeMessage(this.#stream, toBinary(input, message), this.#encoding, this.#limit, this.#what);
      }
      if (!this.#stream.closed) this.#stream.end();
    } catch (error) {
      this.cancel(RpcError.from(error, Code.Canceled));
    }
  }

  /** The response messages; ends after a status OK, throws the status otherwise. Breaking out cancels. */
  async *responses(): AsyncGenerator<unknown> {
    let ended = false;
    try {
      // The response's grpc-encoding is in its headers, which may arrive after the call started.
      await this.#responded();
      const encoding = messageEncodingOf(headerText(this.#headers, GRPC_ENCODING));
      const what = `the response of ${this.#what}`;
      const interrupted = (): RpcError =>
        this.#failure ??
        new RpcError(
          `${this.#what}: the server reset the stream (HTTP/2 error ${this.#stream.rstCode})`,
          Code.Canceled,
        );
      for await (const bytes of readMessages(this.#stream, encoding, this.#limit, what, interrupted)) {
        if (this.#failure !== undefined) throw this.#failure;
        yield fromBinary(this.#method.output, bytes);
      }
      if (this.#failure !== undefined) throw this.#failure;
      ended = true;
      this.#checkStatus();
    } finally {
      if (!ended) this.cancel(new RpcError(`${this.#what}: the caller stopped reading`, Code.Canceled));
      clearTimeout(this.#timer);
    }
  }

  /** Settles once the response headers are in, or the stream closed without them. */
  #responded(): Promise<void> {
    if (this.#headers[":status"] !== undefined || this.#stream.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.#stream.once("response", () => resolve());
      this.#stream.once("close", () => resolve());
    });
  }

  #checkStatus(): void {
    const status = headerText(this.#trailers, GRPC_STATUS) ?? headerText(this.#headers, GRPC_STATUS);
    this.#options.onMetadata?.({
      ...headersToAttachments(this.#headers),
      ...headersToAttachments(this.#trailers),
    });
    if (status === undefined) {
      const httpStatus = Number(this.#headers[":status"] ?? 0);
      throw new RpcError(
        `${this.#what}: the response has no grpc-status (HTTP ${httpStatus})`,
        codeOfHttpStatus(httpStatus),
      );
    }
    if (Number(status) === GRPC_OK) return;
    const message = decodeGrpcMessage(
      headerText(this.#trailers, GRPC_MESSAGE) ?? headerText(this.#headers, GRPC_MESSAGE) ?? "",
    );
    throw new RpcError(`${this.#what}: ${message}`, codeOfGrpcStatus(Number(status)));
  }
}

async function* single(value: unknown): AsyncGenerator<unknown> {
  yield value;
}

async function only(what: string, responses: AsyncIterable<unknown>): Promise<unknown> {
  const all: unknown[] = [];
  for await (const message of responses) all.push(message);
  if (all.length !== 1) {
    throw new RpcError(
      `${what}: the response carried ${all.length} messages; exactly one was expected`,
      Code.Internal,
    );
  }
  return all[0];
}

/** The IDL client behind `createProtoClient` of lazy-entry.ts, which documents it. */
export async function createProtoClient<S extends DescService>(
  service: ProtoService<S>,
  options: ProtoClientOptions,
): Promise<ProtoClientHandle<S>> {
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
  const open = async (method: DescMethod, callOptions: ProtoCallOptions): Promise<ProtoCall> => {
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
    return new ProtoCall(session.request(headers), method, limit, what, callOptions, timeoutMs, encoding);
  };
  const streamed = (
    method: DescMethod,
    input: unknown,
    callOptions: ProtoCallOptions,
  ): AsyncIterable<unknown> => ({
    async *[Symbol.asyncIterator]() {
      const call = await open(method, callOptions);
      const oneRequest = method.methodKind === "unary" || method.methodKind === "server_streaming";
      const requests = oneRequest ? single(input) : (input as AsyncIterable<unknown>);
      void call.send(requests);
      yield* call.responses();
    },
  });
  const client: Record<string, unknown> = {};
  for (const method of service.methods.values()) {
    const what = `${service.typeName}/${method.name}`;
    const oneResponse = method.methodKind === "unary" || method.methodKind === "client_streaming";
    client[method.localName] = oneResponse
      ? (input: unknown, o: ProtoCallOptions = {}) => only(what, streamed(method, input, o))
      : (input: unknown, o: ProtoCallOptions = {}) => streamed(method, input, o);
  }
  return { client: client as ProtoClient<S>, close: () => connection.close() };
}
