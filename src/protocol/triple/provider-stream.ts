import {
  constants,
  type Http2Session,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerHttp2Stream,
} from "node:http2";
import {
  BizError,
  boundedMemo,
  Code,
  type Invocation,
  type JavaType,
  javaTypeOfClassName,
  parameterDescriptor,
  RpcError,
  type RpcResult,
  slotTypeOf,
  slotTypeOfValue,
} from "../../core/index.js";
import { decodeHessian, encodeHessian } from "../../serialize/index.js";
import {
  calledOverload,
  type ExportedMethod,
  type ExportedService,
  type ExporterTable,
  MissingOverload,
  providerServiceKey,
} from "../shared/exporter-table.js";
import { ProviderInvocation } from "../shared/provider-invocation.js";
import {
  ACCEPTED_ENCODINGS,
  describeOwner,
  frameReservedMessage,
  MESSAGE_PREFIX_BYTES,
  type MessageEncoding,
  type MessageOwner,
  MessageReader,
  messageBytes,
  messageEncodingOf,
  type RawMessage,
} from "./grpc-frame.js";
import { encodeGrpcMessage, GRPC_OK } from "./grpc-status.js";
import { parseGrpcTimeout } from "./grpc-timeout.js";
import {
  attachmentsToHeaders,
  BIZ_EXCEPTION_CODE,
  GRPC_ACCEPT_ENCODING,
  GRPC_ENCODING,
  GRPC_MESSAGE,
  GRPC_PROTO_CONTENT_TYPE,
  GRPC_STATUS,
  GRPC_TIMEOUT,
  headerText,
  rawHeadersToAttachments,
  TRI_CONSUMER_APPNAME,
  TRI_EXCEPTION_CODE,
  TRI_SERVICE_GROUP,
  TRI_SERVICE_VERSION,
} from "./triple-headers.js";
import { decodeRequestWrapper, encodeResponseWrapper, WRAPPER_HESSIAN2 } from "./wrapper-codec.js";
import { exportSerializations } from "./wrapper-serialization.js";

/** What every stream of one server shares. */
export interface ProviderStreamContext {
  readonly table: ExporterTable;
  /** `host:port` of the server, for error messages. */
  readonly address: string;
  readonly payloadLimit: number;
  /** Logs a stream's error (one listener for every stream of the server). */
  readonly onStreamError: (error: Error) => void;
}

/** The serializations a wrapper may name: Hessian 2, under its wrapper name or its own. */
function isHessian2(serializeType: string): boolean {
  return serializeType === WRAPPER_HESSIAN2 || serializeType === "hessian2";
}

/** The response headers of each encoding, made once (`respond` copies what it is given). */
const RESPONSE_HEADERS: Readonly<Record<MessageEncoding, OutgoingHttpHeaders>> = {
  identity: Object.freeze({
    ":status": 200,
    "content-type": GRPC_PROTO_CONTENT_TYPE,
    [GRPC_ACCEPT_ENCODING]: ACCEPTED_ENCODINGS,
  }),
  gzip: Object.freeze({
    ":status": 200,
    "content-type": GRPC_PROTO_CONTENT_TYPE,
    [GRPC_ACCEPT_ENCODING]: ACCEPTED_ENCODINGS,
    [GRPC_ENCODING]: "gzip",
  }),
};

/** The headers of a gRPC response whose messages are in `encoding` (frozen: copy to add to them). */
export function responseHeaders(encoding: MessageEncoding): OutgoingHttpHeaders {
  return RESPONSE_HEADERS[encoding];
}

/** Ends the stream with a status and no message (gRPC's trailers-only response, or trailers after headers). */
export function sendStatus(stream: ServerHttp2Stream, code: Code, message: string): void {
  if (stream.destroyed || stream.closed) return;
  const status = { [GRPC_STATUS]: String(code), [GRPC_MESSAGE]: encodeGrpcMessage(message) };
  if (stream.headersSent) {
    stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  stream.respond({ ...responseHeaders("identity"), ...status }, { endStream: true });
}

const MESSAGE_THEN_TRAILERS = Object.freeze({ waitForTrailers: true });

/** The trailers of a result without attachments, made once (`sendTrailers` copies what it is given). */
const OK_TRAILERS: OutgoingHttpHeaders = Object.freeze({ [GRPC_STATUS]: String(GRPC_OK) });

/** `wantTrailers` of a result without attachments: one function for every stream, no closure per call. */
function sendOkTrailers(this: ServerHttp2Stream): void {
  this.sendTrailers(OK_TRAILERS);
}

function hasAny(attachments: RpcResult["attachments"]): boolean {
  for (const _ in attachments) return true;
  return false;
}

/** Sends one message, then trailers with status 0 and the result's attachments. */
function sendMessage(
  stream: ServerHttp2Stream,
  headers: OutgoingHttpHeaders,
  frame: Buffer,
  trailerAttachments: RpcResult["attachments"],
): void {
  if (stream.destroyed || stream.closed) return;
  stream.respond(headers, MESSAGE_THEN_TRAILERS);
  // `wantTrailers` is emitted once per stream, so `on` does without the wrapper `once` makes.
  if (!hasAny(trailerAttachments)) stream.on("wantTrailers", sendOkTrailers);
  else {
    stream.on("wantTrailers", () => {
      const trailers: OutgoingHttpHeaders = { [GRPC_STATUS]: String(GRPC_OK) };
      attachmentsToHeaders(trailerAttachments, trailers);
      stream.sendTrailers(trailers);
    });
  }
  stream.end(frame);
}

/** Ends the stream with the status of `error` (INTERNAL for what is not an {@link RpcError}). */
function failStream(stream: ServerHttp2Stream, error: unknown): void {
  const rpc = RpcError.from(error, Code.Internal);
  sendStatus(stream, rpc.code, rpc.rawMessage);
}

/** One request's target: the service path and the method of `/{service}/{method}`. */
export interface RequestTarget {
  readonly path: string;
  readonly method: string;
}

/** One decoded request: what the call needs, before the service is found. */
interface TripleRequest extends RequestTarget {
  readonly encoding: MessageEncoding;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[] | undefined;
}

/** `/{service}/{method}` split, or undefined when the path has another shape. */
export function parsePath(path: string | undefined): RequestTarget | undefined {
  if (path === undefined || !path.startsWith("/")) return undefined;
  const slash = path.lastIndexOf("/");
  if (slash <= 0 || slash === path.length - 1) return undefined;
  return { path: path.slice(1, slash), method: path.slice(slash + 1) };
}

/** The served call each stream of {@link serveStream} belongs to, read by the module's listeners. */
const SERVED = Symbol("triple served call");

type ServedStream = ServerHttp2Stream & { [SERVED]?: ServedWrapperCall };

// One listener function of each kind for every stream (`this` is the stream), no closure per call.
function onServedClose(this: ServedStream): void {
  this[SERVED]!.closed();
}

function onServedData(this: ServedStream, chunk: Buffer): void {
  this[SERVED]!.read(chunk);
}

function onServedEnd(this: ServedStream): void {
  this[SERVED]!.ended();
}

/**
 * One wrapper-mode unary call on its stream, from the request's bytes to the answer: the request
 * it describes ({@link TripleRequest}), its message reader, and the invocation once the service is
 * called. One object per call, rather than a closure for each stream listener, and its name (`the
 * request to … at host:port`) is spelled only when an error needs it.
 */
class ServedWrapperCall implements TripleRequest {
  readonly path: string;
  readonly method: string;
  readonly encoding: MessageEncoding;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[] | undefined;
  readonly #context: ProviderStreamContext;
  readonly #stream: ServerHttp2Stream;
  readonly #exported: ExportedService | undefined;
  readonly #done: () => void;
  readonly #reader: MessageReader;
  #invocation: ProviderInvocation | undefined;

  constructor(
    context: ProviderStreamContext,
    stream: ServerHttp2Stream,
    headers: IncomingHttpHeaders,
    rawHeaders: readonly string[] | undefined,
    target: RequestTarget,
    encoding: MessageEncoding,
    exported: ExportedService | undefined,
    done: () => void,
  ) {
    this.path = target.path;
    this.method = target.method;
    this.encoding = encoding;
    this.headers = headers;
    this.rawHeaders = rawHeaders;
    this.#context = context;
    this.#stream = stream;
    this.#exported = exported;
    this.#done = done;
    this.#reader = new MessageReader(context.payloadLimit, this);
  }

  describe(): string {
    return `the request to ${this.path}/${this.method} at ${this.#context.address}`;
  }

  read(chunk: Buffer): void {
    try {
      this.#reader.push(chunk);
    } catch (error) {
      failStream(this.#stream, error);
    }
  }

  ended(): void {
    const stream = this.#stream;
    if (stream.closed || stream.destroyed || stream.headersSent) return;
    try {
      const bytes = messageBytes(
        onlyMessage(this.#reader, this),
        this.encoding,
        this.#context.payloadLimit,
        this,
      );
      // Only a gzip request waits (to be inflated); the others are served on this callback.
      if (bytes instanceof Promise)
        bytes
          .then((inflated) => this.#inflated(inflated))
          .catch((error: unknown) => failStream(stream, error));
      else this.#call(bytes);
    } catch (error) {
      failStream(stream, error);
    }
  }

  /** A gzip request's message, inflated: served unless its caller closed the stream meanwhile. */
  #inflated(bytes: Buffer): void {
    if (this.#stream.closed || this.#stream.destroyed) {
      this.#context.onStreamError(
        new RpcError(
          `${this.describe()}: the caller closed the stream while its request was inflated; not served`,
          Code.Canceled,
        ),
      );
      return;
    }
    this.#call(bytes);
  }

  #call(bytes: Buffer): void {
    this.#invocation = invokeService(this.#context, this.#stream, this, bytes, this.#exported);
  }

  /**
   * The stream closed: its executor slot is free. Closed before we answered, the caller canceled
   * (RST_STREAM) or the connection went away; an answered call completed its invocation first, so
   * no error is built for it.
   */
  closed(): void {
    this.#done();
    const invocation = this.#invocation;
    if (invocation === undefined || this.#stream.headersSent) return;
    invocation.cancel(
      new RpcError(`${invocation.service}.${invocation.method}: the caller canceled the call`, Code.Canceled),
    );
  }
}

/**
 * Serves one HTTP/2 stream as a Triple unary call in wrapper mode: checks the request's headers,
 * reads its one message within `payload`, types the arguments by the exported overload the
 * wrapper's class names select, calls the exported invoker and answers the result, the provider's
 * exception (a message marked by `tri-exception-code`, as Java sends it) or a status. `target`
 * and `exported` are the path and the service the server's dispatch found for the stream; `done`
 * runs once it has closed.
 */
export function serveStream(
  context: ProviderStreamContext,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  rawHeaders: readonly string[] | undefined,
  target: RequestTarget | undefined,
  exported: ExportedService | undefined,
  done: () => void,
): void {
  const encoding = acceptedEncoding(stream, headers, target);
  if (encoding === undefined || target === undefined) {
    stream.on("close", done);
    return;
  }
  const call = new ServedWrapperCall(context, stream, headers, rawHeaders, target, encoding, exported, done);
  (stream as ServedStream)[SERVED] = call;
  stream.on("close", onServedClose);
  stream.on("data", onServedData);
  stream.on("error", context.onStreamError);
  stream.on("end", onServedEnd);
}

/**
 * The request's `grpc-encoding`, or undefined once a request that is not a Triple call of ours was
 * answered: not a POST (405), not gRPC's content type (415), a path that is not /{service}/{method}
 * or an encoding we do not speak (a status).
 */
function acceptedEncoding(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  target: RequestTarget | undefined,
): MessageEncoding | undefined {
  if (headers[":method"] !== "POST") {
    stream.respond({ ":status": 405, allow: "POST" }, { endStream: true });
    return undefined;
  }
  const contentType = headerText(headers, "content-type") ?? "";
  if (!contentType.startsWith("application/grpc")) {
    stream.respond({ ":status": 415 }, { endStream: true });
    return undefined;
  }
  if (target === undefined) {
    sendStatus(
      stream,
      Code.Unimplemented,
      `the path "${headerText(headers, ":path")}" is not /{service}/{method}`,
    );
    return undefined;
  }
  try {
    return messageEncodingOf(headerText(headers, GRPC_ENCODING));
  } catch (error) {
    failStream(stream, error);
    return undefined;
  }
}

/** The request's one message, once the stream has ended. */
function onlyMessage(reader: MessageReader, owner: MessageOwner): RawMessage {
  reader.finish();
  if (reader.messages.length !== 1) {
    throw new RpcError(
      `${describeOwner(owner)} carried ${reader.messages.length} messages; a unary call carries exactly one`,
      Code.InvalidArgument,
    );
  }
  return reader.messages[0]!;
}

/**
 * The exported service a request names (path, `tri-service-group`, `tri-service-version`), if any.
 * The path is the service's own (an IDL service's `package.Service`) or its Java interface's name:
 * Java's Triple server (`TriplePathResolver`) answers both, and a Java consumer of a hand-written
 * interface sends the interface's name when its `url=` has no path (Java's `ReferenceConfig`).
 */
export function exportedFor(
  table: ExporterTable,
  headers: IncomingHttpHeaders,
  path: string,
): ExportedService | undefined {
  const key = providerServiceKey(
    path,
    headerText(headers, TRI_SERVICE_GROUP),
    headerText(headers, TRI_SERVICE_VERSION),
  );
  return table.find(key) ?? table.findByInterface(key);
}

/** The Unimplemented error of a request whose service is not exported, listing what is. */
function notExported(table: ExporterTable, request: TripleRequest, address: string): RpcError {
  const key = providerServiceKey(
    request.path,
    headerText(request.headers, TRI_SERVICE_GROUP),
    headerText(request.headers, TRI_SERVICE_VERSION),
  );
  const exported = table.keys;
  return new RpcError(
    `no service "${key}" is exported at ${address} (called method ${request.method}); exported here: ` +
      `${exported.length === 0 ? "none" : exported.join(", ")}. Check the reference's interface, group and version`,
    Code.Unimplemented,
  );
}

/**
 * The provider's invocation of a call of `method` on `exported`: named by the service's interface
 * (an IDL service's `{java_package}.{Service}`, not its path), as the consumer's and an injvm
 * provider's invocations are and as Java's Triple server names its `targetServiceUniqueName`; the
 * attachments its headers carry (with the caller's application as `remote.application`, and the
 * service's `path`, `group`, `version`), its deadline from
 * `grpc-timeout`, the caller's address. `rawHeaders`, the headers' raw list when the server has
 * it, is the cheaper read of the attachments. `timesItsDeadline` false: the caller cancels the
 * invocation at its deadline (see {@link ProviderInvocation}).
 */
export function providerInvocation(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  exported: ExportedService,
  method: string,
  call: Pick<Invocation, "parameterTypes" | "returnType" | "args" | "idl">,
  rawHeaders?: readonly string[],
  timesItsDeadline = true,
): ProviderInvocation {
  const group = headerText(headers, TRI_SERVICE_GROUP);
  const version = headerText(headers, TRI_SERVICE_VERSION);
  const attachments = rawHeadersToAttachments(rawHeaders, headers);
  const application = headerText(headers, TRI_CONSUMER_APPNAME);
  if (application !== undefined && attachments["remote.application"] === undefined)
    attachments["remote.application"] = application;
  attachments.path ??= exported.path;
  if (version !== undefined) attachments.version ??= version;
  if (group !== undefined && group !== "") attachments.group ??= group;
  const timeoutHeader = headerText(headers, GRPC_TIMEOUT);
  const timeoutMs = timeoutHeader === undefined ? undefined : parseGrpcTimeout(timeoutHeader);
  // Every field named (no spread of `call`): a spread in the middle of a literal is a runtime copy
  // per call, the largest self frame of ours in the provider's profile.
  return new ProviderInvocation(
    {
      service: exported.url.serviceInterface,
      group: group === undefined || group === "" ? undefined : group,
      version: version === undefined || version === "" || version === "0.0.0" ? undefined : version,
      method,
      parameterTypes: call.parameterTypes,
      returnType: call.returnType,
      args: call.args,
      idl: call.idl,
      attachments,
      deadline: timeoutMs === undefined ? undefined : Date.now() + timeoutMs,
      oneWay: false,
      remoteAddress: stream.session === undefined ? undefined : remoteAddressOf(stream.session),
    },
    timesItsDeadline,
  );
}

/** Each connection's `host:port` peer, read once (through the session's socket proxy) per session. */
const remoteAddresses = new WeakMap<Http2Session, string>();

function remoteAddressOf(session: Http2Session): string | undefined {
  let address = remoteAddresses.get(session);
  if (address === undefined) {
    const { socket } = session;
    if (socket?.remoteAddress === undefined) return undefined;
    address = `${socket.remoteAddress}:${socket.remotePort}`;
    remoteAddresses.set(session, address);
  }
  return address;
}

/**
 * Decodes the request's wrapper, calls the service and answers (the result, or the provider's
 * exception as a marked message, or a failure as a status). Only the service and compressing are
 * waited for, with one `then` on the service's promise.
 */
function invokeService(
  context: ProviderStreamContext,
  stream: ServerHttp2Stream,
  request: TripleRequest & { describe(): string },
  bytes: Buffer,
  service: ExportedService | undefined,
): ProviderInvocation {
  const { address, table } = context;
  const wrapper = decodeRequestWrapper(bytes);
  // Java 3.3's server refuses a name its service does not permit (DecodeException: UNKNOWN).
  const permitted = service === undefined ? undefined : exportSerializations(service);
  if (permitted !== undefined && !permitted.permits(wrapper.serializeType)) {
    throw permitted.refusal(
      wrapper.serializeType,
      Code.Unknown,
      request.describe(),
      "send one the provider permits, or add it to the provider's `prefer.serialization`",
    );
  }
  if (wrapper.args.length > 0 && !isHessian2(wrapper.serializeType)) {
    throw new RpcError(
      `${request.describe()} is serialized as "${wrapper.serializeType}"; this provider reads Hessian 2 ("${WRAPPER_HESSIAN2}") only`,
      Code.Unimplemented,
    );
  }
  // The contracts of the service found, whichever of its names the request's path spelled.
  const types = typesOf(table.forPath(service?.path ?? request.path), request, wrapper.argTypes, address);
  const args: unknown[] = [];
  for (let i = 0; i < wrapper.args.length; i++) {
    try {
      args.push(decodeHessian(wrapper.args[i]!, types.parameterTypes[i]));
    } catch (error) {
      throw new RpcError(
        `${request.describe()}: argument ${i} (${wrapper.argTypes[i] ?? "untyped"}) could not be decoded: ${(error as Error).message}`,
        Code.InvalidArgument,
        { cause: error },
      );
    }
  }
  // Only a gzip request that accepts gzip is answered gzip.
  const responseEncoding = request.encoding === "gzip" && acceptsGzip(request) ? "gzip" : "identity";
  if (service === undefined) throw notExported(table, request, address);
  const invocation = providerInvocation(
    stream,
    request.headers,
    service,
    request.method,
    { parameterTypes: types.parameterTypes, returnType: types.returnType, args },
    request.rawHeaders,
  );
  service.invoker.invoke(invocation).then(
    (result) => {
      invocation.complete();
      const declared = invocation.returnType;
      const resultType =
        declared !== undefined && declared.kind !== "object"
          ? declared
          : (slotTypeOf(result, "value") ?? slotTypeOfValue(invocation.args, result.value) ?? declared);
      answer(context, stream, responseEncoding, result, resultType, false);
    },
    (error: unknown) => {
      invocation.complete();
      // Framework failures travel as a status; the provider's own exceptions as a marked message.
      if (error instanceof RpcError) failStream(stream, error);
      else {
        const exception =
          error instanceof Error
            ? error
            : new BizError(`the provider threw a non-Error value: ${String(error)}`);
        answer(
          context,
          stream,
          responseEncoding,
          { value: exception, attachments: {} },
          types.returnType,
          true,
        );
      }
    },
  );
  return invocation;
}

function acceptsGzip(request: TripleRequest): boolean {
  const accepted = headerText(request.headers, GRPC_ACCEPT_ENCODING) ?? "";
  return accepted.split(",").some((e) => e.trim() === "gzip");
}

/**
 * Writes a result (or the provider's exception) as Java's `WrapResponsePack` does, or the status of
 * what failed while answering; waits only to compress a gzip answer.
 */
function answer(
  context: ProviderStreamContext,
  stream: ServerHttp2Stream,
  encoding: MessageEncoding,
  result: RpcResult,
  type: JavaType | undefined,
  exception: boolean,
): void {
  try {
    const valueType = exception || type?.kind === "void" ? undefined : type;
    const data = encodeHessian(result.value, valueType);
    const message = encodeResponseWrapper(
      { serializeType: WRAPPER_HESSIAN2, data, type: type?.name ?? "java.lang.Object" },
      MESSAGE_PREFIX_BYTES,
    );
    const size = message.length - MESSAGE_PREFIX_BYTES;
    if (size > context.payloadLimit) {
      throw new RpcError(
        `the response of ${stream.sentHeaders[":path"] ?? "the call"} at ${context.address} is ${size} bytes, ` +
          `over the payload limit of ${context.payloadLimit} bytes; raise \`payload\` or return less`,
        Code.ResourceExhausted,
      );
    }
    const headers = exception
      ? { ...responseHeaders(encoding), [TRI_EXCEPTION_CODE]: BIZ_EXCEPTION_CODE }
      : responseHeaders(encoding);
    const framed = frameReservedMessage(message, encoding);
    if (framed instanceof Promise) {
      framed
        .then((frame) => sendMessage(stream, headers, frame, result.attachments))
        .catch((error: unknown) => failStream(stream, error));
    } else sendMessage(stream, headers, framed, result.attachments);
  } catch (error) {
    failStream(stream, error);
  }
}

/**
 * The JavaType of each class name a wrapper names, resolved once each: every call names the same
 * few. Bounded, so a generic caller naming ever new classes cannot grow it without end.
 */
const classType = boundedMemo(1024, (name: string): JavaType => javaTypeOfClassName(name));

/**
 * The parameter and return types of the called overload: the exported contract's overload whose
 * types the wrapper names, or, without a contract and for the generic and echo methods, the types
 * the class names spell.
 */
function typesOf(
  contracts: readonly ExportedService[],
  request: TripleRequest,
  argTypes: readonly string[],
  address: string,
): { parameterTypes: readonly JavaType[]; returnType: JavaType | undefined } {
  const named = argTypes.map(classType);
  let method: ExportedMethod | undefined;
  try {
    method = calledOverload(contracts, request.method, parameterDescriptor(named));
  } catch (error) {
    if (!(error instanceof MissingOverload)) throw error;
    throw new RpcError(
      `the provider at ${address} has no method ${request.path}.${request.method}(${argTypes.join(", ")}): ${error.message}`,
      Code.Unimplemented,
    );
  }
  if (method !== undefined) return { parameterTypes: method.parameterTypes, returnType: method.returnType };
  return { parameterTypes: named, returnType: undefined };
}
