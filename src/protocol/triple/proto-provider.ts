import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { create, type DescMethod, fromBinary, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { Code, RpcError } from "../../core/index.js";
import { type MessageEncoding, messageEncodingOf } from "./grpc-frame.js";
import { encodeGrpcMessage, GRPC_OK } from "./grpc-status.js";
import { parseGrpcTimeout } from "./grpc-timeout.js";
import { readMessages, writeMessage } from "./message-stream.js";
import type { ProtoCallContext, ProtoService } from "./proto-service.js";
import { responseHeaders } from "./provider-stream.js";
import {
  attachmentsToHeaders,
  GRPC_ACCEPT_ENCODING,
  GRPC_ENCODING,
  GRPC_MESSAGE,
  GRPC_STATUS,
  GRPC_TIMEOUT,
  headersToAttachments,
  headerText,
} from "./triple-headers.js";

type AnyHandler = (input: unknown, call: ProtoCallContext) => unknown;

/** One IDL service served by a Triple server, with its handlers. */
export interface ServedProtoService {
  readonly service: ProtoService;
  readonly implementation: Readonly<Record<string, AnyHandler>>;
}

/** The IDL services of one server, by `package.Service`. */
export type ProtoServiceTable = Map<string, ServedProtoService>;

export interface ProtoStreamContext {
  readonly address: string;
  readonly payloadLimit: number;
}

/** Checks that every method of the service has a handler, naming the missing ones. */
export function servedProtoService(service: ProtoService, implementation: object): ServedProtoService {
  const handlers = implementation as Record<string, unknown>;
  const missing = [...service.methods.values()].filter((m) => typeof handlers[m.localName] !== "function");
  if (missing.length > 0) {
    throw new TypeError(
      `the implementation of ${service.typeName} lacks ${missing.map((m) => `${m.localName} (rpc ${m.name})`).join(", ")}`,
    );
  }
  return { service, implementation: handlers as Record<string, AnyHandler> };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | undefined)?.[Symbol.asyncIterator] === "function";
}

/**
 * Serves one IDL-mode call: the request messages are the protobuf bytes of the method's input
 * (no wrapper), the answers those of its output. Streaming requests reach the handler as an async
 * iterable read as it pulls (HTTP/2 flow control holds the caller back); streamed answers wait
 * for `drain`. A reset by the caller aborts `signal` and fails the request iterable with
 * CANCELLED; the deadline from `grpc-timeout` ends the call with DEADLINE_EXCEEDED.
 */
export function serveProtoCall(
  context: ProtoStreamContext,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  served: ServedProtoService,
  method: DescMethod,
): void {
  const what = `${served.service.typeName}/${method.name} at ${context.address}`;
  const controller = new AbortController();
  const trailers: Record<string, string | Uint8Array> = {};
  let finished = false;
  const finish = (code: Code | typeof GRPC_OK, message: string): void => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    if (stream.destroyed || stream.closed) return;
    const status: OutgoingHttpHeaders = { [GRPC_STATUS]: String(code) };
    if (message !== "") status[GRPC_MESSAGE] = encodeGrpcMessage(message);
    attachmentsToHeaders(trailers, status);
    if (!stream.headersSent) {
      stream.respond({ ...responseHeaders("identity"), ...status }, { endStream: true });
      return;
    }
    stream.once("wantTrailers", () => stream.sendTrailers(status));
    stream.end();
  };
  const timeoutHeader = headerText(headers, GRPC_TIMEOUT);
  const deadline =
    timeoutHeader === undefined
      ? undefined
      : setTimeout(() => {
          const error = new RpcError(`${what}: the caller's deadline passed`, Code.DeadlineExceeded);
          finish(error.code, error.rawMessage);
          controller.abort(error);
        }, parseGrpcTimeout(timeoutHeader));
  stream.on("close", () => {
    clearTimeout(deadline);
    finished = true;
    if (!controller.signal.aborted)
      controller.abort(new RpcError(`${what}: the caller canceled the call`, Code.Canceled));
  });
  stream.on("error", () => {});
  run(context, stream, headers, served, method, controller.signal, trailers, what).then(
    () => finish(GRPC_OK, ""),
    (error: unknown) => {
      const rpc = RpcError.from(error, Code.Unknown);
      finish(rpc.code, rpc.rawMessage);
    },
  );
}

async function run(
  context: ProtoStreamContext,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  served: ServedProtoService,
  method: DescMethod,
  signal: AbortSignal,
  trailers: Record<string, string | Uint8Array>,
  what: string,
): Promise<void> {
  const encoding = messageEncodingOf(headerText(headers, GRPC_ENCODING));
  const accepted = (headerText(headers, GRPC_ACCEPT_ENCODING) ?? "").split(",").map((e) => e.trim());
  const responseEncoding: MessageEncoding =
    encoding === "gzip" && accepted.includes("gzip") ? "gzip" : "identity";
  const canceled = (): RpcError =>
    signal.reason instanceof RpcError
      ? signal.reason
      : new RpcError(`${what}: the caller canceled the call`, Code.Canceled);
  async function* requests(): AsyncGenerator<unknown> {
    for await (const bytes of readMessages(
      stream,
      encoding,
      context.payloadLimit,
      `the request to ${what}`,
      canceled,
    )) {
      try {
        yield fromBinary(method.input, bytes);
      } catch (error) {
        if (error instanceof RpcError) throw error;
        throw new RpcError(
          `${what}: a request message is not a valid ${method.input.typeName}: ${(error as Error).message}`,
          Code.InvalidArgument,
        );
      }
    }
  }
  const call: ProtoCallContext = { signal, metadata: headersToAttachments(headers), trailers };
  const handler = served.implementation[method.localName]!;
  const streamingRequests =
    method.methodKind === "client_streaming" || method.methodKind === "bidi_streaming";
  let input: unknown;
  if (streamingRequests) input = requests();
  else {
    const all: unknown[] = [];
    for await (const message of requests()) all.push(message);
    if (all.length !== 1) {
      throw new RpcError(
        `${what}: the request carried ${all.length} messages; a ${method.methodKind} call carries exactly one`,
        Code.Internal,
      );
    }
    input = all[0];
  }
  const send = async (init: unknown): Promise<void> => {
    if (signal.aborted) throw canceled();
    if (!stream.headersSent) stream.respond(responseHeaders(responseEncoding), { waitForTrailers: true });
    const message = create(method.output, init as MessageInitShape<typeof method.output>);
    await writeMessage(
      stream,
      toBinary(method.output, message),
      responseEncoding,
      context.payloadLimit,
      `the response of ${what}`,
    );
  };
  const answer = handler(input, call);
  if (method.methodKind === "server_streaming" || method.methodKind === "bidi_streaming") {
    if (!isAsyncIterable(answer)) {
      throw new RpcError(
        `${what}: the handler ${method.localName} must return an async iterable`,
        Code.Internal,
      );
    }
    for await (const init of answer) await send(init);
    return;
  }
  await send(await answer);
}
