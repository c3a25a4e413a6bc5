import {
  answersOneMessage,
  Code,
  type IdlCallContext,
  type IdlMessageStream,
  type IdlService,
  type Invocation,
  type Invoker,
  isAsyncIterable,
  mapMessages,
  RpcError,
  type RpcResult,
  resultOf,
  type ServiceDefinition,
  type Url,
} from "../../core/index.js";
import { implementationInvoker } from "./implementation-invoker.js";

/** The contract of an IDL service (`defineProtoService(...).definition`). */
export type IdlServiceDefinition = ServiceDefinition & { readonly idl: IdlService };

type IdlHandler = (input: unknown, call: IdlCallContext) => unknown;

/** The handler of every method of `service` in `implementation`, naming the missing ones. */
function indexHandlers(
  interfaceName: string,
  service: IdlService,
  implementation: object,
): Map<string, IdlHandler> {
  const handlers = new Map<string, IdlHandler>();
  const missing: string[] = [];
  for (const method of service.methods.values()) {
    const handler = (implementation as Record<string, unknown>)[method.localName];
    if (typeof handler === "function")
      handlers.set(method.name, (handler as IdlHandler).bind(implementation));
    else missing.push(`${method.localName} (rpc ${method.name})`);
  }
  if (missing.length > 0) {
    throw new RpcError(
      `the implementation of ${interfaceName} lacks ${missing.join(", ")}`,
      Code.InvalidArgument,
    );
  }
  return handlers;
}

/** A client-streaming handler's one answer, as a stream of one message. */
async function* awaitedMessage(answer: unknown): AsyncGenerator<unknown> {
  yield await answer;
}

/**
 * The provider side of an IDL service: each call runs the method's handler with the request (one
 * message, or an async iterable of them) and a call context whose `metadata` is the invocation's
 * attachments and whose `trailers` travel back as the result's attachments. A unary call's result
 * is its answer; every streaming kind's is an {@link IdlMessageStream} (a client stream's holds its
 * one answer), its trailers read when it ends.
 */
export function createIdlProviderInvoker(
  definition: IdlServiceDefinition,
  implementation: object,
  url: Url,
): Invoker {
  const { interfaceName, idl: service } = definition;
  const handlers = indexHandlers(interfaceName, service, implementation);
  const call = async (inv: Invocation): Promise<RpcResult> => {
    const method = service.methods.get(inv.method);
    const handler = handlers.get(inv.method);
    if (method === undefined || handler === undefined) {
      throw new RpcError(
        `${interfaceName} has no rpc ${inv.method} (its rpcs: ${[...service.methods.keys()].join(", ")})`,
        Code.Unimplemented,
      );
    }
    const trailers: Record<string, string | Uint8Array> = {};
    const answer = handler(inv.args[0], { signal: inv.signal, metadata: inv.attachments, trailers });
    if (method.kind === "unary") return resultOf(method.createResponse(await answer), trailers);
    const answers = answersOneMessage(method.kind) ? awaitedMessage(answer) : answer;
    if (!isAsyncIterable(answers)) {
      throw new RpcError(
        `${interfaceName}/${inv.method}: the handler ${method.localName} must return an async iterable`,
        Code.Internal,
      );
    }
    const stream: IdlMessageStream = {
      [Symbol.asyncIterator]: () => mapMessages(answers, method.createResponse),
      attachments: trailers,
    };
    return resultOf(stream, trailers);
  };
  return implementationInvoker(url, definition, call);
}
