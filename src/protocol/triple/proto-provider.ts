import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from "node:http2";
import {
  Code,
  type DeadlineTimers,
  type IdlMessageStream,
  type IdlMethod,
  isAsyncIterable,
  RpcError,
  type RpcResult,
  sendsOneMessage,
} from "../../core/index.js";
import type { ExportedService } from "../shared/exporter-table.js";
import type { ProviderInvocation } from "../shared/provider-invocation.js";
import { type MessageEncoding, messageEncodingOf } from "./grpc-frame.js";
import { encodeGrpcMessage, GRPC_OK } from "./grpc-status.js";
import { parseGrpcTimeout } from "./grpc-timeout.js";
import { readMessages, writeMessage } from "./message-stream.js";
import { providerInvocation, responseHeaders } from "./provider-stream.js";
import {
  attachmentsToHeaders,
  GRPC_ACCEPT_ENCODING,
  GRPC_ENCODING,
  GRPC_MESSAGE,
  GRPC_STATUS,
  GRPC_TIMEOUT,
  headerText,
} from "./triple-headers.js";

export interface ProtoStreamContext {
  readonly address: string;
  readonly payloadLimit: number;
  /** The application's timer wheel, for each call's `grpc-timeout`. */
  readonly deadlines: DeadlineTimers;
}

/** A streamed answer's own trailers (an {@link IdlMessageStream}'s), complete once it has ended. */
function streamTrailers(value: AsyncIterable<unknown>): RpcResult["attachments"] {
  return (value as Partial<IdlMessageStream>).attachments ?? {};
}

/**
 * Serves one IDL-mode call through the exported invoker (the provider filter chain, then the
 * service's handler): the request messages are the protobuf bytes of the method's input (no
 * wrapper), the answers those of its output. Streaming requests reach the handler as an async
 * iterable read as it pulls (HTTP/2 flow control holds the caller back); streamed answers wait
 * for `drain`. A reset by the caller aborts the invocation's `signal` and fails the request
 * iterable with CANCELLED; the deadline from `grpc-timeout` ends the call with DEADLINE_EXCEEDED.
 */
export function serveIdlCall(
  context: ProtoStreamContext,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  exported: ExportedService,
  method: IdlMethod,
): void {
  const path = exported.path;
  const what = `${path}/${method.name} at ${context.address}`;
  let invocation: ProviderInvocation | undefined;
  let cancelReason: RpcError | undefined;
  let finished = false;
  const finish = (code: Code | typeof GRPC_OK, message: string, trailers: RpcResult["attachments"]): void => {
    if (finished) return;
    finished = true;
    stopDeadline();
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
  const cancel = (reason: RpcError): void => {
    cancelReason ??= reason;
    invocation?.cancel(reason);
  };
  const timeoutHeader = headerText(headers, GRPC_TIMEOUT);
  const timeoutMs = timeoutHeader === undefined ? undefined : parseGrpcTimeout(timeoutHeader);
  const deadline = {
    onDeadline(): void {
      const error = new RpcError(`${what}: the caller's deadline passed`, Code.DeadlineExceeded);
      finish(error.code, error.rawMessage, {});
      cancel(error);
    },
  };
  const stopDeadline = (): void => {
    if (timeoutMs !== undefined) context.deadlines.delete(deadline, timeoutMs);
  };
  // A zero timeout has passed already: the wheel takes positive timeouts only.
  if (timeoutMs !== undefined) {
    if (timeoutMs > 0) context.deadlines.add(deadline, timeoutMs);
    else queueMicrotask(deadline.onDeadline);
  }
  stream.on("close", () => {
    stopDeadline();
    finished = true;
    cancel(new RpcError(`${what}: the caller canceled the call`, Code.Canceled));
  });
  stream.on("error", () => {});
  const canceled = (): RpcError =>
    cancelReason ?? new RpcError(`${what}: the caller canceled the call`, Code.Canceled);
  run(context, stream, headers, exported, method, what, canceled, (created) => {
    invocation = created;
    // Canceled (or past its deadline) while its request was read: it starts aborted.
    if (cancelReason !== undefined) created.cancel(cancelReason);
  }).then(
    (trailers) => {
      invocation?.complete();
      finish(GRPC_OK, "", trailers);
    },
    (error: unknown) => {
      invocation?.complete();
      const rpc = RpcError.from(error, Code.Unknown);
      finish(rpc.code, rpc.rawMessage, {});
    },
  );
}

/** Runs the call; resolves with the trailers' attachments once the answer is written. */
async function run(
  context: ProtoStreamContext,
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  exported: ExportedService,
  method: IdlMethod,
  what: string,
  canceled: () => RpcError,
  started: (invocation: ProviderInvocation) => void,
): Promise<RpcResult["attachments"]> {
  const encoding = messageEncodingOf(headerText(headers, GRPC_ENCODING));
  const accepted = (headerText(headers, GRPC_ACCEPT_ENCODING) ?? "").split(",").map((e) => e.trim());
  const responseEncoding: MessageEncoding =
    encoding === "gzip" && accepted.includes("gzip") ? "gzip" : "identity";
  async function* requests(): AsyncGenerator<unknown> {
    const messages = readMessages(stream, encoding, context.payloadLimit, `the request to ${what}`, canceled);
    for await (const bytes of messages) yield method.decodeRequest(bytes);
  }
  let input: unknown;
  if (!sendsOneMessage(method.kind)) input = requests();
  else {
    const all: unknown[] = [];
    for await (const message of requests()) all.push(message);
    if (all.length !== 1) {
      throw new RpcError(
        `${what}: the request carried ${all.length} messages; a ${method.kind} call carries exactly one`,
        Code.Internal,
      );
    }
    input = all[0];
  }
  const invocation = providerInvocation(
    stream,
    headers,
    exported,
    method.name,
    { parameterTypes: [], returnType: undefined, args: [input], idl: method },
    undefined,
    // serveIdlCall's entry on the timer wheel cancels the invocation at its deadline.
    false,
  );
  started(invocation);
  if (stream.closed || invocation.signal.aborted) throw canceled();
  const send = async (message: unknown): Promise<void> => {
    if (invocation.signal.aborted || stream.closed) throw canceled();
    if (!stream.headersSent) stream.respond(responseHeaders(responseEncoding), { waitForTrailers: true });
    const bytes = method.encodeResponse(message);
    await writeMessage(stream, bytes, responseEncoding, context.payloadLimit, `the response of ${what}`);
  };
  const result = await exported.invoker.invoke(invocation);
  if (method.kind === "unary") {
    await send(result.value);
    return result.attachments;
  }
  const answers = result.value;
  if (!isAsyncIterable(answers)) {
    throw new RpcError(`${what}: a streaming rpc must answer an async iterable`, Code.Internal);
  }
  for await (const message of answers) await send(message);
  return { ...result.attachments, ...streamTrailers(answers) };
}
