import type { DescService } from "@bufbuild/protobuf";
import type { ProtoClientHandle, ProtoClientOptions } from "./proto-client.js";
import type { ProtoServer, ProtoServerOptions } from "./proto-server.js";
import type { ProtoCallOptions, ProtoClient, ProtoService } from "./proto-service.js";

// What every application loads of Triple: the protocol's name and the IDL entry points. The
// modules behind them (HTTP/2 client and server, protobuf encoding, and so `@bufbuild/protobuf`)
// load by dynamic import on first use, so an application on the dubbo protocol alone never loads them.

/** The protocol's name in URLs: `tri://host:50051/com.foo.Service`. */
export const TRIPLE_PROTOCOL = "tri";

/**
 * A Triple server for IDL-mode services (the Triple server the tri protocol uses, so framing,
 * `payload`, TLS and GOAWAY draining are the same); gRPC clients call it as any gRPC server.
 * A gzip request is answered gzip when the caller accepts it (`grpc-accept-encoding`).
 */
export async function createProtoServer(options: ProtoServerOptions = {}): Promise<ProtoServer> {
  return (await import("./proto-server.js")).createProtoServer(options);
}

type AnyCall = (input: unknown, options?: ProtoCallOptions) => unknown;

/**
 * An IDL-mode consumer of `service` at `address`: one HTTP/2 connection, one stream per call,
 * `content-type: application/grpc+proto`, each message the protobuf bytes of the method's input.
 * Streams are async iterables: request iterables are pulled only as the stream's buffer drains,
 * and breaking out of a response iterable resets the stream (the server sees CANCELLED). Nothing
 * connects, and no TLS file is read, before the first call (whose failure then names a bad setting).
 */
export function createProtoClient<S extends DescService>(
  service: ProtoService<S>,
  options: ProtoClientOptions,
): ProtoClientHandle<S> {
  let loaded: Promise<ProtoClientHandle<S>> | undefined;
  const callOf = async (name: string): Promise<AnyCall> => {
    loaded ??= import("./proto-client.js").then((m) => m.createProtoClient(service, options));
    return ((await loaded).client as unknown as Record<string, AnyCall>)[name]!;
  };
  const client: Record<string, AnyCall> = {};
  for (const method of service.methods.values()) {
    const name = method.localName;
    const oneResponse = method.methodKind === "unary" || method.methodKind === "client_streaming";
    client[name] = oneResponse
      ? async (input, callOptions) => (await callOf(name))(input, callOptions)
      : (input, callOptions) => ({
          async *[Symbol.asyncIterator]() {
            yield* (await callOf(name))(input, callOptions) as AsyncIterable<unknown>;
          },
        });
  }
  return {
    client: client as unknown as ProtoClient<S>,
    async close() {
      // A client whose setup failed (a bad TLS file) has nothing to close.
      await (await loaded?.catch(() => undefined))?.close();
    },
  };
}
