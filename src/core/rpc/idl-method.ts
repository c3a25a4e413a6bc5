/** gRPC's four call kinds, as protobuf descriptors name them. */
export type IdlCallKind = "unary" | "server_streaming" | "client_streaming" | "bidi_streaming";

/**
 * One method of an IDL (protobuf) service as the layers below the stub see it: its wire name, its
 * call kind and the codec of its messages. Made by `defineProtoService`; the protocol writes and
 * reads the messages with it, so nothing under the stub needs the protobuf runtime.
 */
export interface IdlMethod {
  /** The proto method name (`SayHello`): the path's second part and the invocation's method. */
  readonly name: string;
  /** The generated (camelCase) name a stub and an implementation use (`sayHello`). */
  readonly localName: string;
  readonly kind: IdlCallKind;
  /** The request message of an init shape (`{ name: "x" }`), unset fields at their defaults. */
  createRequest(init: unknown): unknown;
  /** The response message of an init shape, as a handler may answer one. */
  createResponse(init: unknown): unknown;
  encodeRequest(message: unknown): Uint8Array;
  decodeRequest(bytes: Uint8Array): unknown;
  encodeResponse(message: unknown): Uint8Array;
  decodeResponse(bytes: Uint8Array): unknown;
}

/** The methods of an IDL service, by proto method name, and the path they are served at. */
export interface IdlService {
  /**
   * The proto's `package.Service`: the request path's first part and the exported URL's path,
   * which the Java interface the service registers under (`interfaceName`) may differ from.
   */
  readonly path: string;
  readonly methods: ReadonlyMap<string, IdlMethod>;
  /** Loads what the methods' codecs need (the protobuf runtime); awaited before the first export or call. */
  ready(): Promise<void>;
}

/** Whether one message goes each way: `unary` and `client_streaming` answer one message. */
export function answersOneMessage(kind: IdlCallKind): boolean {
  return kind === "unary" || kind === "client_streaming";
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | undefined)?.[Symbol.asyncIterator] === "function";
}

/** Each message of `messages` through `convert`, as pulled. */
export async function* mapMessages(
  messages: AsyncIterable<unknown>,
  convert: (message: unknown) => unknown,
): AsyncGenerator<unknown> {
  for await (const message of messages) yield convert(message);
}

/** `unary` and `server_streaming` send one request message. */
export function sendsOneMessage(kind: IdlCallKind): boolean {
  return kind === "unary" || kind === "server_streaming";
}

/**
 * A streamed IDL answer: the messages, and the attachments (trailers) that go with them, complete
 * once the last message has been read.
 */
export interface IdlMessageStream extends AsyncIterable<unknown> {
  readonly attachments: Readonly<Record<string, unknown>>;
}

/** What an IDL handler sees of its call. */
export interface IdlCallContext {
  /** Aborts when the caller cancels (RST_STREAM), its deadline passes, or the server stops. */
  readonly signal: AbortSignal;
  /** The request's metadata (custom headers; `-bin` ones as bytes). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Sent as trailers with the status: set entries while the call runs. */
  readonly trailers: Record<string, string | Uint8Array>;
}

/** Per-call options of an IDL consumer. */
export interface IdlCallOptions {
  /**
   * The call's deadline, sent as `grpc-timeout`. Through an application a unary call defaults to
   * the attempt's `timeout`; a stream has no deadline but this one, as Java's streams have none.
   */
  readonly timeoutMs?: number;
  /** Aborting it cancels the call (RST_STREAM CANCEL). */
  readonly signal?: AbortSignal;
  /** Sent as request headers (attachments). */
  readonly metadata?: Readonly<Record<string, string | Uint8Array>>;
  /** Called with the response's headers and trailers as attachments once the call has ended. */
  readonly onMetadata?: (metadata: Record<string, unknown>) => void;
}
