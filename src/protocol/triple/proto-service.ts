import type {
  DescMessage,
  DescMethod,
  DescService,
  MessageInitShape,
  MessageShape,
} from "@bufbuild/protobuf";

/**
 * An IDL-mode service: a protobuf service descriptor (a `GenService` from protoc-gen-es's `_pb`
 * code) indexed by the method names gRPC puts in the path, `/{package.Service}/{Method}`.
 */
export interface ProtoService<S extends DescService = DescService> {
  readonly descriptor: S;
  /** `package.Service`, the path's first part. */
  readonly typeName: string;
  /** By the proto method name (`SayHello`). */
  readonly methods: ReadonlyMap<string, DescMethod>;
}

/**
 * Declares an IDL service from its generated descriptor. Throws a `TypeError` naming the problem
 * when `descriptor` is not a service descriptor.
 *
 * @example
 * import { Greeter } from "./gen/greeter_pb.js";
 * const GreeterService = defineProtoService(Greeter);
 */
export function defineProtoService<S extends DescService>(descriptor: S): ProtoService<S> {
  if (descriptor?.kind !== "service" || !Array.isArray(descriptor.methods)) {
    throw new TypeError(
      "defineProtoService: expected a service descriptor, such as the `GenService` a protoc-gen-es `_pb` file exports",
    );
  }
  const methods = new Map(descriptor.methods.map((m) => [m.name, m] as const));
  return Object.freeze({ descriptor, typeName: descriptor.typeName, methods });
}

/**
 * The method a request path names, from methods keyed by proto name: by that name (`SayHello`, as
 * gRPC and Dubbo's generated stubs send it) or by it with a lower-case first letter (`sayHello`:
 * Java Dubbo's Triple consumer of a plain Java interface with protobuf messages sends the Java
 * method's name; Java's server accepts both ways too).
 */
export function protoMethodOfPath<M>(methods: ReadonlyMap<string, M>, name: string): M | undefined {
  return methods.get(name) ?? methods.get(name.charAt(0).toUpperCase() + name.slice(1));
}

/** What a handler sees of its call. */
export interface ProtoCallContext {
  /** Aborts when the caller cancels (RST_STREAM), its deadline passes, or the server stops. */
  readonly signal: AbortSignal;
  /** The request's metadata (custom headers; `-bin` ones as bytes). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Sent as trailers with the status: set entries while the call runs. */
  readonly trailers: Record<string, string | Uint8Array>;
}

type In<M> = M extends { input: infer I extends DescMessage } ? MessageShape<I> : never;
type Out<M> = M extends { output: infer O extends DescMessage } ? MessageShape<O> : never;
type OutInit<M> = M extends { output: infer O extends DescMessage } ? MessageInitShape<O> : never;
type InInit<M> = M extends { input: infer I extends DescMessage } ? MessageInitShape<I> : never;

type HandlerOf<M> = M extends { methodKind: "unary" }
  ? (request: In<M>, call: ProtoCallContext) => OutInit<M> | Promise<OutInit<M>>
  : M extends { methodKind: "server_streaming" }
    ? (request: In<M>, call: ProtoCallContext) => AsyncIterable<OutInit<M>>
    : M extends { methodKind: "client_streaming" }
      ? (requests: AsyncIterable<In<M>>, call: ProtoCallContext) => OutInit<M> | Promise<OutInit<M>>
      : (requests: AsyncIterable<In<M>>, call: ProtoCallContext) => AsyncIterable<OutInit<M>>;

/** What a provider implements: a handler per method, by its generated (camelCase) name. */
export type ProtoImplementation<S extends DescService> = {
  [K in keyof S["method"]]: HandlerOf<S["method"][K]>;
};

/** Per-call options of a consumer. */
export interface ProtoCallOptions {
  /** The call's deadline, sent as `grpc-timeout`; the client's `timeoutMs` when absent. */
  readonly timeoutMs?: number;
  /** Aborting it cancels the call (RST_STREAM CANCEL). */
  readonly signal?: AbortSignal;
  /** Sent as request headers. */
  readonly metadata?: Readonly<Record<string, string | Uint8Array>>;
  /** Called with the response's headers and trailers as attachments once the call has ended. */
  readonly onMetadata?: (metadata: Record<string, unknown>) => void;
}

type CallOf<M> = M extends { methodKind: "unary" }
  ? (request: InInit<M>, options?: ProtoCallOptions) => Promise<Out<M>>
  : M extends { methodKind: "server_streaming" }
    ? (request: InInit<M>, options?: ProtoCallOptions) => AsyncIterable<Out<M>>
    : M extends { methodKind: "client_streaming" }
      ? (requests: AsyncIterable<InInit<M>>, options?: ProtoCallOptions) => Promise<Out<M>>
      : (requests: AsyncIterable<InInit<M>>, options?: ProtoCallOptions) => AsyncIterable<Out<M>>;

/** What a consumer calls: unary methods return a promise, streams are async iterables. */
export type ProtoClient<S extends DescService> = {
  readonly [K in keyof S["method"]]: CallOf<S["method"][K]>;
};
