import type { ClientHttp2Session, OutgoingHttpHeaders } from "node:http2";
import {
  AttemptTimeouts,
  Code,
  DEFAULT_PAYLOAD_BYTES,
  DEFAULT_SERVICE_VERSION,
  type DeadlineTimers,
  type IdlMethod,
  type Invocation,
  type Invoker,
  type JavaType,
  RpcError,
  type RpcResult,
  resultOf,
  streamTimeoutMs,
  TIMEOUT_ATTACHMENT,
  type Url,
} from "../../core/index.js";
import { encodeHessian } from "../../serialize/index.js";
import { type AttemptScope, BoundedAttempt, isStream } from "./bounded-attempt.js";
import type { ClientConnection } from "./client-connection.js";
import {
  ACCEPTED_ENCODINGS,
  frameReservedMessage,
  MESSAGE_PREFIX_BYTES,
  type MessageEncoding,
  messageEncodingOf,
} from "./grpc-frame.js";
import { formatGrpcTimeout } from "./grpc-timeout.js";
import { IdlCall } from "./idl-call.js";
import {
  attachmentsToHeaders,
  GRPC_ACCEPT_ENCODING,
  GRPC_ENCODING,
  GRPC_PROTO_CONTENT_TYPE,
  GRPC_TIMEOUT,
  TRI_CONSUMER_APPNAME,
  TRI_SERVICE_GROUP,
  TRI_SERVICE_VERSION,
} from "./triple-headers.js";
import { WrapperCall, type WrapperScope } from "./wrapper-call.js";
import { encodeRequestWrapper, WRAPPER_HESSIAN2 } from "./wrapper-codec.js";
import { WrapperSerializations } from "./wrapper-serialization.js";

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

/** What every call of one method of a reference shares, made on its first call. */
interface MethodScope {
  /** `/{service}/{method}`. */
  readonly path: string;
  /** `Service.method to host:port`, in every error of the call. */
  readonly what: string;
  /** The wrapper's `argTypes` of the parameter types last called, the same array on every call of a plan. */
  argTypesOf: readonly JavaType[] | undefined;
  argTypes: readonly string[];
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
  readonly #methods = new Map<string, MethodScope>();
  #lastTimeout: readonly [number, string] = [Number.NaN, ""];
  readonly #scope: WrapperScope;
  #destroyed = false;

  constructor(url: Url, options: TripleInvokerOptions) {
    this.url = url;
    this.#options = options;
    this.#path = url.path || url.serviceInterface;
    this.#timeouts = new AttemptTimeouts(url);
    this.#payloadLimit = url.number("payload", DEFAULT_PAYLOAD_BYTES);
    this.#encoding = messageEncodingOf(url.get(COMPRESSOR_KEY));
    const { connection, deadlines } = options;
    this.#scope = {
      deadlines,
      service: url.serviceInterface,
      address: connection.address,
      serializations: new WrapperSerializations(url),
    };
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
    const method = this.#method(inv.method);
    const { what } = method;
    if (this.#destroyed) {
      return Promise.reject(new RpcError(`${what}: the reference was destroyed`, Code.Unavailable));
    }
    // Java bounds a stream only by what its caller asked for, never by the reference's `timeout`.
    const timeoutMs = isStream(inv) ? streamTimeoutMs(inv) : this.#timeouts.of(inv);
    if (timeoutMs !== undefined && timeoutMs <= 0) {
      return Promise.reject(
        new RpcError(`${what}: the call's deadline passed before it was sent`, Code.DeadlineExceeded),
      );
    }
    return inv.idl === undefined
      ? this.#call(inv, method, timeoutMs)
      : this.#idlCall(inv, inv.idl, method, timeoutMs);
  }

  /** The request wrapper after room for its message prefix ({@link frameReservedMessage}). */
  #requestBytes(inv: Invocation, method: MethodScope): Buffer {
    const { what } = method;
    let wrapper: Buffer;
    try {
      const { args, parameterTypes } = inv;
      const encoded: Buffer[] = [];
      for (let i = 0; i < args.length; i++) encoded.push(encodeHessian(args[i], parameterTypes[i]));
      if (method.argTypesOf !== parameterTypes) {
        method.argTypesOf = parameterTypes;
        method.argTypes = parameterTypes.map((t) => t.name);
      }
      wrapper = encodeRequestWrapper(
        { serializeType: WRAPPER_HESSIAN2, args: encoded, argTypes: method.argTypes },
        MESSAGE_PREFIX_BYTES,
      );
    } catch (error) {
      const cause = RpcError.from(error, Code.InvalidArgument);
      throw new RpcError(`${what}: cannot encode the call: ${cause.rawMessage}`, cause.code, { cause });
    }
    const size = wrapper.length - MESSAGE_PREFIX_BYTES;
    if (size > this.#payloadLimit) {
      throw new RpcError(
        `${what}: the request is ${size} bytes, over the payload limit of ${this.#payloadLimit} bytes; ` +
          "raise `payload` on both sides or send less",
        Code.ResourceExhausted,
      );
    }
    return wrapper;
  }

  #headers(inv: Invocation, method: MethodScope, timeoutMs: number | undefined): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {
      ":method": "POST",
      ":scheme": this.#options.connection.scheme,
      ":authority": this.#options.connection.address,
      ":path": method.path,
      ...this.#base,
    };
    if (timeoutMs !== undefined) headers[GRPC_TIMEOUT] = this.#grpcTimeout(timeoutMs);
    attachmentsToHeaders(inv.attachments, headers, NOT_HEADERS);
    return headers;
  }

  /** The method's path and name, built once per method. */
  #method(name: string): MethodScope {
    let method = this.#methods.get(name);
    if (method === undefined) {
      method = {
        path: `/${this.#path}/${name}`,
        what: `${this.url.serviceInterface}.${name} to ${this.#options.connection.address}`,
        argTypesOf: undefined,
        argTypes: [],
      };
      this.#methods.set(name, method);
    }
    return method;
  }

  /** The `grpc-timeout` of `timeoutMs`; calls of one reference mostly share a timeout, so the last one is kept. */
  #grpcTimeout(timeoutMs: number): string {
    if (this.#lastTimeout[0] !== timeoutMs) this.#lastTimeout = [timeoutMs, formatGrpcTimeout(timeoutMs)];
    return this.#lastTimeout[1];
  }

  /** The session to open the call's stream on: the live one at once, else once connected. */
  #session(what: string): ClientHttp2Session | Promise<ClientHttp2Session> {
    const { connection } = this.#options;
    return (
      connection.live ??
      connection.session().catch((error: unknown) => {
        const cause = RpcError.from(error, Code.Unavailable);
        throw new RpcError(`${what}: ${cause.rawMessage}`, cause.code, { cause });
      })
    );
  }

  /**
   * Wrapper mode: one wrapped request, one wrapped answer. An identity request on a live
   * connection waits for nothing but the answer, and the answer is decoded in the response's one
   * promise, as a unary call is most of a consumer's traffic.
   */
  #call(inv: Invocation, method: MethodScope, timeoutMs: number | undefined): Promise<RpcResult> {
    try {
      const frame = frameReservedMessage(this.#requestBytes(inv, method), this.#encoding);
      const session = this.#session(method.what);
      if (frame instanceof Promise || session instanceof Promise) {
        return Promise.all([frame, session]).then(([f, s]) => this.#send(inv, method, timeoutMs, s, f));
      }
      return this.#send(inv, method, timeoutMs, session, frame);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #send(
    inv: Invocation,
    method: MethodScope,
    timeoutMs: number | undefined,
    session: ClientHttp2Session,
    frame: Buffer,
  ): Promise<RpcResult> {
    const stream = session.request(this.#headers(inv, method, timeoutMs));
    stream.end(frame);
    return new WrapperCall(this.#scope, inv, method.what, timeoutMs, stream, this.#payloadLimit).result();
  }

  /**
   * IDL mode: the messages as the method's protobuf, no wrapper. A unary call resolves with its
   * answer; a streaming call of any kind resolves once the stream is open, with the answers as an
   * `IdlMessageStream` (so a cluster retries a stream only when it could not be opened, as Java's
   * streams are not retried), its deadline (if any) and the call's signal bounding it to its end.
   */
  async #idlCall(
    inv: Invocation,
    idl: IdlMethod,
    method: MethodScope,
    timeoutMs: number | undefined,
  ): Promise<RpcResult> {
    const { what } = method;
    const session = await this.#session(what);
    const call = new IdlCall(
      session.request(this.#headers(inv, method, timeoutMs)),
      idl,
      this.#payloadLimit,
      what,
    );
    const bounds = new IdlBounds(this.#scope, inv, what, timeoutMs, call);
    call.onClose(() => bounds.disarm());
    call.send(inv.args[0], this.#encoding);
    if (idl.kind !== "unary") return resultOf(call.stream());
    const value = await call.only();
    return resultOf(value, call.attachments);
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

/** The bounds of an IDL call: its deadline or its signal cancels the call, resetting its stream. */
class IdlBounds extends BoundedAttempt {
  readonly #call: IdlCall;

  constructor(
    scope: AttemptScope,
    inv: Invocation,
    what: string,
    timeoutMs: number | undefined,
    call: IdlCall,
  ) {
    super(scope, inv, what, timeoutMs);
    this.#call = call;
    this.arm();
  }

  protected cancel(reason: RpcError): void {
    this.#call.cancel(reason);
  }
}
