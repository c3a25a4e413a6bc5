import {
  type ClientHttp2Stream,
  constants,
  type IncomingHttpHeaders,
  type IncomingHttpStatusHeader,
  type OutgoingHttpHeaders,
} from "node:http2";
import {
  AttemptTimeouts,
  attemptTimeoutError,
  BizError,
  Code,
  cancelableSignal,
  canceledError,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_SERVICE_VERSION,
  type DeadlineTimers,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
  resultOf,
  TIMEOUT_ATTACHMENT,
  type TimedEntry,
  type Url,
} from "../../core/index.js";
import { decodeHessian, encodeHessian } from "../../serialize/index.js";
import type { ClientConnection } from "./client-connection.js";
import {
  ACCEPTED_ENCODINGS,
  frameMessage,
  type MessageEncoding,
  MessageReader,
  messageBytes,
  messageEncodingOf,
} from "./grpc-frame.js";
import { codeOfGrpcStatus, codeOfHttpStatus, decodeGrpcMessage, GRPC_OK } from "./grpc-status.js";
import { formatGrpcTimeout } from "./grpc-timeout.js";
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
  TRI_CONSUMER_APPNAME,
  TRI_EXCEPTION_CODE,
  TRI_SERVICE_GROUP,
  TRI_SERVICE_VERSION,
} from "./triple-headers.js";
import { decodeResponseWrapper, encodeRequestWrapper, WRAPPER_HESSIAN2 } from "./wrapper-codec.js";

export interface TripleInvokerOptions {
  readonly connection: ClientConnection;
  readonly deadlines: DeadlineTimers;
  /** Gives the shared connection back when the invoker is destroyed. */
  readonly release: () => Promise<void>;
}

/**
 * The message encoding a reference sends (`identity`, `gzip`); Java reads the same key from its
 * environment (`Constants.COMPRESSOR_KEY`).
 */
const COMPRESSOR_KEY = "dubbo.rpc.tri.compressor";

/** Attachment keys that travel as Triple's own headers, or not at all. */
const NOT_HEADERS: ReadonlySet<string> = new Set([
  TIMEOUT_ATTACHMENT,
  "path",
  "version",
  "group",
  "interface",
]);

function asBizError(value: unknown): BizError {
  if (value instanceof BizError) return value;
  if (value instanceof Error) return new BizError(value.message, { cause: value });
  return new BizError(`the provider answered with an exception that is not a Throwable: ${String(value)}`);
}

/**
 * The consumer side of one provider over Triple (Java's TripleInvoker), wrapper mode: each
 * argument Hessian-2 serialized into a `TripleRequestWrapper`, one HTTP/2 stream per call with
 * Dubbo's headers, the attempt's `timeout` as `grpc-timeout`. A timeout or the call's signal
 * resets the stream (RST_STREAM CANCEL), which ends the call on the provider too.
 */
export class TripleInvoker implements Invoker {
  readonly url: Url;
  readonly #options: TripleInvokerOptions;
  readonly #path: string;
  readonly #timeouts: AttemptTimeouts;
  readonly #payloadLimit: number;
  readonly #encoding: MessageEncoding;
  /** Headers every call of this reference carries. */
  readonly #base: OutgoingHttpHeaders;
  #destroyed = false;

  constructor(url: Url, options: TripleInvokerOptions) {
    this.url = url;
    this.#options = options;
    this.#path = url.path || url.serviceInterface;
    this.#timeouts = new AttemptTimeouts(url);
    this.#payloadLimit = url.number("payload", DEFAULT_PAYLOAD_BYTES);
    this.#encoding = messageEncodingOf(url.get(COMPRESSOR_KEY));
    const base: OutgoingHttpHeaders = {
      "content-type": GRPC_PROTO_CONTENT_TYPE,
      te: "trailers",
      [GRPC_ACCEPT_ENCODING]: ACCEPTED_ENCODINGS,
    };
    if (this.#encoding !== "identity") base[GRPC_ENCODING] = this.#encoding;
    const version = url.get("version");
    if (version !== undefined && version !== "" && version !== DEFAULT_SERVICE_VERSION)
      base[TRI_SERVICE_VERSION] = version;
    const group = url.get("group");
    if (group !== undefined && group !== "") base[TRI_SERVICE_GROUP] = group;
    const application = url.get("application");
    if (application !== undefined && application !== "") base[TRI_CONSUMER_APPNAME] = application;
    const token = url.get("token");
    if (token !== undefined && token !== "") base.token = token;
    this.#base = Object.freeze(base);
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    const what = `${this.url.serviceInterface}.${inv.method} to ${this.#options.connection.address}`;
    if (this.#destroyed) {
      return Promise.reject(new RpcError(`${what}: the reference was destroyed`, Code.Unavailable));
    }
    const timeoutMs = this.#timeouts.of(inv);
    if (timeoutMs <= 0) {
      return Promise.reject(
        new RpcError(`${what}: the call's deadline passed before it was sent`, Code.DeadlineExceeded),
      );
    }
    return this.#call(inv, what, timeoutMs);
  }

  #requestBytes(inv: Invocation, what: string): Buffer {
    let wrapper: Buffer;
    try {
      wrapper = encodeRequestWrapper({
        serializeType: WRAPPER_HESSIAN2,
        args: inv.args.map((arg, i) => encodeHessian(arg, inv.parameterTypes[i])),
        argTypes: inv.parameterTypes.map((t) => t.name),
      });
    } catch (error) {
      const cause = RpcError.from(error, Code.InvalidArgument);
      throw new RpcError(`${what}: cannot encode the call: ${cause.rawMessage}`, cause.code, { cause });
    }
    if (wrapper.length > this.#payloadLimit) {
      throw new RpcError(
        `${what}: the request is ${wrapper.length} bytes, over the payload limit of ${this.#payloadLimit} bytes; ` +
          "raise `payload` on both sides or send less",
        Code.ResourceExhausted,
      );
    }
    return wrapper;
  }

  #headers(inv: Invocation, timeoutMs: number): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {
      ":method": "POST",
      ":scheme": this.#options.connection.scheme,
      ":authority": this.#options.connection.address,
      ":path": `/${this.#path}/${inv.method}`,
      ...this.#base,
      [GRPC_TIMEOUT]: formatGrpcTimeout(timeoutMs),
    };
    const sent: Record<string, unknown> = {};
    for (const key in inv.attachments) if (!NOT_HEADERS.has(key)) sent[key] = inv.attachments[key];
    attachmentsToHeaders(sent, headers);
    return headers;
  }

  async #call(inv: Invocation, what: string, timeoutMs: number): Promise<RpcResult> {
    const frame = await frameMessage(this.#requestBytes(inv, what), this.#encoding);
    const session = await this.#options.connection.session().catch((error: unknown) => {
      const cause = RpcError.from(error, Code.Unavailable);
      throw new RpcError(`${what}: ${cause.rawMessage}`, cause.code, { cause });
    });
    const stream = session.request(this.#headers(inv, timeoutMs));
    stream.end(frame);
    const response = await this.#await(stream, inv, what, timeoutMs);
    return this.#result(inv, what, response);
  }

  /** Waits for the stream's end within the attempt's timeout and the call's signal. */
  #await(
    stream: ClientHttp2Stream,
    inv: Invocation,
    what: string,
    timeoutMs: number,
  ): Promise<TripleResponse> {
    const { deadlines } = this.#options;
    const started = performance.now();
    const reader = new MessageReader(this.#payloadLimit, `the response of ${what}`);
    return new Promise<TripleResponse>((resolve, reject) => {
      let headers: IncomingHttpHeaders & IncomingHttpStatusHeader = {};
      let trailers: IncomingHttpHeaders = {};
      let settled = false;
      const signal = cancelableSignal(inv.signal);
      const settle = (error: RpcError | undefined): void => {
        if (settled) return;
        settled = true;
        deadlines.delete(entry, timeoutMs);
        signal?.removeEventListener("abort", onAbort);
        if (error === undefined) {
          resolve({ headers, trailers, reader });
          return;
        }
        if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
        reject(error);
      };
      const entry: TimedEntry = {
        onDeadline: () =>
          settle(
            attemptTimeoutError({
              service: this.url.serviceInterface,
              method: inv.method,
              address: this.#options.connection.address,
              elapsedMs: Math.round(performance.now() - started),
              timeoutMs,
            }),
          ),
      };
      const onAbort = (): void => settle(canceledError(what, signal?.reason));
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      deadlines.add(entry, timeoutMs);
      stream.on("response", (h) => {
        headers = h;
      });
      stream.on("trailers", (t) => {
        trailers = t;
      });
      stream.on("data", (chunk: Buffer) => {
        try {
          reader.push(chunk);
        } catch (error) {
          settle(RpcError.from(error, Code.Internal));
        }
      });
      stream.on("error", (error) =>
        settle(
          new RpcError(`${what}: the stream failed: ${error.message}`, Code.Unavailable, { cause: error }),
        ),
      );
      stream.on("close", () => {
        if (stream.rstCode !== constants.NGHTTP2_NO_ERROR && headers[":status"] === undefined) {
          settle(
            new RpcError(
              `${what}: the provider reset the stream (HTTP/2 error ${stream.rstCode})`,
              Code.Unavailable,
            ),
          );
          return;
        }
        settle(undefined);
      });
    });
  }

  async #result(inv: Invocation, what: string, response: TripleResponse): Promise<RpcResult> {
    const { headers, trailers, reader } = response;
    // A trailers-only response carries the status in its headers.
    const status = headerText(trailers, GRPC_STATUS) ?? headerText(headers, GRPC_STATUS);
    if (status === undefined) {
      const httpStatus = Number(headers[":status"] ?? 0);
      throw new RpcError(
        `${what}: the response has no grpc-status (HTTP ${httpStatus}); is the address a Triple provider?`,
        codeOfHttpStatus(httpStatus),
      );
    }
    if (Number(status) !== GRPC_OK) {
      const message = decodeGrpcMessage(
        headerText(trailers, GRPC_MESSAGE) ?? headerText(headers, GRPC_MESSAGE) ?? "",
      );
      throw new RpcError(`${what}: ${message}`, codeOfGrpcStatus(Number(status)));
    }
    reader.finish();
    if (reader.messages.length !== 1) {
      throw new RpcError(
        `${what}: the response carried ${reader.messages.length} messages; a unary call answers exactly one`,
        Code.Internal,
      );
    }
    const encoding = messageEncodingOf(headerText(headers, GRPC_ENCODING));
    const bytes = await messageBytes(
      reader.messages[0]!,
      encoding,
      this.#payloadLimit,
      `the response of ${what}`,
    );
    const wrapper = decodeResponseWrapper(bytes);
    const attachments = { ...headersToAttachments(headers), ...headersToAttachments(trailers) };
    const exceptionCode = headerText(headers, TRI_EXCEPTION_CODE);
    const isException = exceptionCode !== undefined && exceptionCode !== "0";
    if (wrapper.data === undefined) {
      if (isException) throw asBizError(undefined);
      return resultOf(null, attachments);
    }
    let value: unknown;
    try {
      const type = inv.returnType?.kind === "void" ? undefined : inv.returnType;
      value = decodeHessian(wrapper.data, isException ? undefined : type);
    } catch (error) {
      const cause = RpcError.from(error, Code.Internal);
      throw new RpcError(`${what}: the response could not be decoded: ${cause.rawMessage}`, Code.Internal, {
        cause,
      });
    }
    if (isException) throw asBizError(value);
    return resultOf(value, attachments);
  }

  isAvailable(): boolean {
    return !this.#destroyed && this.#options.connection.isUsable;
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#options.release();
  }
}

interface TripleResponse {
  readonly headers: IncomingHttpHeaders;
  readonly trailers: IncomingHttpHeaders;
  readonly reader: MessageReader;
}
