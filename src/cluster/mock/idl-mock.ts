import {
  BizError,
  Code,
  type IdlCallContext,
  type IdlMessageStream,
  type IdlMethod,
  type Invocation,
  isAsyncIterable,
  RpcError,
  type RpcResult,
  resultOf,
} from "../../core/index.js";
import type { MockImplementation } from "../contracts.js";

/**
 * Mocks of IDL (protobuf) methods. Java runs a Triple stream through the same MockClusterInvoker
 * as a unary call, so `force:` and `fail:` apply to every call kind alike; `fail:` can only
 * catch a stream that could not be opened, because an open stream reports its failures through
 * the stream itself (ours: while iterating), never to the mock.
 */

/** A mock implementation's failure as the caller sees it: an `RpcError` or `BizError` as thrown, anything else a business error. */
export function asMockFailure(error: unknown): BizError | RpcError {
  if (error instanceof BizError || error instanceof RpcError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BizError(message, { cause: error });
}

/**
 * `mock=return …` of an IDL method: a unary call answers the value as its response message
 * (`empty` is the message with every field at its default, `null` is null, as Java's stub hands
 * the caller). A streaming method has no return value to mock: Java drops it (the stream then
 * never ends, or a client stream gets a value where its request observer belongs), so we refuse
 * it with an error naming what to use instead.
 */
export function idlMockReturn(method: IdlMethod, text: string, value: unknown, where: string): RpcResult {
  if (method.kind !== "unary") {
    throw new RpcError(
      `mock "return ${text}" cannot answer ${where}: it is a ${method.kind.replace("_", "-")} rpc, and a stream has no return value to mock (use a mock implementation, or mock=throw)`,
      Code.InvalidArgument,
    );
  }
  if (text === "empty") return resultOf(method.createResponse({}));
  return resultOf(value === null ? null : method.createResponse(value));
}

async function* answers(messages: AsyncIterable<unknown>, method: IdlMethod): AsyncGenerator<unknown> {
  try {
    for await (const message of messages) yield method.createResponse(message);
  } catch (error) {
    throw asMockFailure(error);
  }
}

/**
 * Calls the mock implementation of an IDL service as its provider's handler would be called: by
 * the rpc's generated name, with the request (or request stream) and a call context (the caller's
 * signal and metadata; its trailers become the answer's attachments). A unary result is its
 * answer; a streaming one is an `IdlMessageStream`, as the Triple invoker returns it.
 */
export async function callIdlMock(
  implementation: MockImplementation,
  method: IdlMethod,
  inv: Invocation,
  what: string,
): Promise<RpcResult> {
  const handler = implementation[method.localName];
  if (typeof handler !== "function") {
    throw new RpcError(
      `${what} has no method ${method.localName} (${inv.service}/${method.name})`,
      Code.Unimplemented,
    );
  }
  const trailers: Record<string, string | Uint8Array> = {};
  const context: IdlCallContext = { signal: inv.signal, metadata: inv.attachments, trailers };
  let answer: unknown;
  try {
    answer = await handler.call(implementation, inv.args[0], context);
  } catch (error) {
    throw asMockFailure(error);
  }
  if (method.kind === "unary") return resultOf(method.createResponse(answer), trailers);
  const messages = method.kind === "client_streaming" ? oneMessage(answer) : answer;
  if (!isAsyncIterable(messages)) {
    throw new RpcError(
      `${what}: ${method.localName} must return an async iterable of answers (an async generator), got ${typeof answer}`,
      Code.Internal,
    );
  }
  const stream: IdlMessageStream = {
    [Symbol.asyncIterator]: () => answers(messages, method),
    attachments: trailers,
  };
  return resultOf(stream);
}

async function* oneMessage(message: unknown): AsyncGenerator<unknown> {
  yield message;
}
