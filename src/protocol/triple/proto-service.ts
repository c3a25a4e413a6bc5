import type * as Protobuf from "@bufbuild/protobuf";
import type {
  DescMessage,
  DescMethod,
  DescService,
  MessageInitShape,
  MessageShape,
} from "@bufbuild/protobuf";
import {
  Code,
  type IdlCallContext,
  type IdlCallOptions,
  type IdlMethod,
  isJavaClassName,
  RpcError,
} from "../../core/index.js";
import type { IdlServiceDefinition } from "../shared/idl-provider-invoker.js";

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
  /**
   * The contract `app.export` and `app.refer` take it as: the Java interface it registers and
   * subscribes under (`interfaceName`, see {@link ProtoServiceOptions.interface}), the path
   * `package.Service` (`idl.path`) and the methods' codecs.
   */
  readonly definition: IdlServiceDefinition;
}

/** How `defineProtoService` names the service in registries. */
export interface ProtoServiceOptions {
  /**
   * The Java interface the service registers and subscribes under, when it is not the one Dubbo's
   * protoc plugin generates from the proto (`{java_package}.{Service}`, or `package.Service`
   * without a `java_package`): e.g. the name of a hand-written Java interface. The path stays
   * the proto's `package.Service` either way.
   */
  readonly interface?: string;
}

/** `convert` with its failure reported as an `InvalidArgument` naming the message type. */
function checked<A, R>(schema: DescMessage, what: string, convert: (value: A) => R): (value: A) => R {
  return (value) => {
    try {
      return convert(value);
    } catch (error) {
      throw new RpcError(
        `${what}: a message is not a valid ${schema.typeName}: ${(error as Error).message}`,
        Code.InvalidArgument,
        { cause: error },
      );
    }
  };
}

// `@bufbuild/protobuf` loads on the first IDL export, reference or proto server/client (each awaits
// `loadProtobufRuntime`), not with the package: an application on the dubbo protocol never loads it.
let runtime: typeof Protobuf | undefined;

/** Loads the protobuf runtime the message codecs use; every IDL entry point awaits it first. */
export async function loadProtobufRuntime(): Promise<void> {
  runtime ??= await import("@bufbuild/protobuf");
}

function protobuf(): typeof Protobuf {
  if (runtime === undefined) {
    throw new Error("internal: an IDL message was coded before loadProtobufRuntime() finished");
  }
  return runtime;
}

/** Creates, encodes and decodes the messages of one schema. */
function codec(schema: DescMessage, what: string) {
  const created = (init: unknown) => protobuf().create(schema, init as MessageInitShape<DescMessage>);
  return {
    create: checked(schema, what, created),
    encode: checked(schema, what, (message: unknown) => protobuf().toBinary(schema, created(message))),
    decode: checked(schema, what, (bytes: Uint8Array): unknown => protobuf().fromBinary(schema, bytes)),
  };
}

function idlMethodOf(service: string, method: DescMethod): IdlMethod {
  const what = `${service}/${method.name}`;
  const request = codec(method.input, `the request of ${what}`);
  const response = codec(method.output, `the response of ${what}`);
  return Object.freeze({
    name: method.name,
    localName: method.localName,
    kind: method.methodKind,
    createRequest: request.create,
    createResponse: response.create,
    encodeRequest: request.encode,
    decodeRequest: request.decode,
    encodeResponse: response.encode,
    decodeResponse: response.decode,
  });
}

/**
 * The Java interface Dubbo's protoc plugin (dubbo-compiler's `Dubbo3TripleGenerator`) generates
 * for a service, the name a Java provider on its ImplBase registers under and a Java consumer on
 * its stub subscribes to: `{java_package}.{Service}`, or the proto's `package.Service` when the
 * file sets no `java_package`. `java_multiple_files` and `java_outer_classname` move only the
 * message classes: the interface is always its own file in that package.
 */
function generatedJavaInterface(descriptor: DescService): string {
  const javaPackage = descriptor.file.proto.options?.javaPackage;
  return javaPackage ? `${javaPackage}.${descriptor.name}` : descriptor.typeName;
}

/** The interface `options` names, checked, else the generated one. */
function interfaceOf(descriptor: DescService, options: ProtoServiceOptions): string {
  const given = options.interface;
  if (given === undefined) return generatedJavaInterface(descriptor);
  if (!isJavaClassName(given)) {
    throw new TypeError(
      `defineProtoService(${descriptor.typeName}): interface ${JSON.stringify(given)} is not a Java interface name (expected e.g. com.foo.Greeter, or leave it out for ${generatedJavaInterface(descriptor)})`,
    );
  }
  return given;
}

/**
 * Declares an IDL service from its generated descriptor. It registers and subscribes under the
 * Java interface Dubbo's protoc plugin generates from the proto (`{java_package}.{Service}`, else
 * `package.Service`), or `options.interface`, and is served at `/{package.Service}/{Method}`.
 * Throws a `TypeError` naming the problem when `descriptor` is not a service descriptor or
 * `options.interface` not a Java interface name.
 *
 * @example
 * import { Greeter } from "./gen/greeter_pb.js";
 * const GreeterService = defineProtoService(Greeter);
 */
export function defineProtoService<S extends DescService>(
  descriptor: S,
  options: ProtoServiceOptions = {},
): ProtoService<S> {
  if (descriptor?.kind !== "service" || !Array.isArray(descriptor.methods)) {
    throw new TypeError(
      "defineProtoService: expected a service descriptor, such as the `GenService` a protoc-gen-es `_pb` file exports",
    );
  }
  const methods = new Map(descriptor.methods.map((m) => [m.name, m] as const));
  const typeName = descriptor.typeName;
  const idl = new Map(descriptor.methods.map((m) => [m.name, idlMethodOf(typeName, m)] as const));
  const definition = Object.freeze({
    interfaceName: interfaceOf(descriptor, options),
    methods: {},
    idl: { path: typeName, methods: idl, ready: loadProtobufRuntime },
  });
  return Object.freeze({ descriptor, typeName, methods, definition });
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

/** What a handler sees of its call: its `signal`, the request's `metadata`, the `trailers` to send. */
export type ProtoCallContext = IdlCallContext;

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
export type ProtoCallOptions = IdlCallOptions;

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
