import {
  answersOneMessage,
  Code,
  canceledError,
  createInvocation,
  type IdlCallOptions,
  type IdlMessageStream,
  type IdlMethod,
  type Invocation,
  type Invoker,
  mapMessages,
  RpcError,
  type RpcResult,
  raceSignal,
  type ServiceDefinition,
  sendsOneMessage,
  TIMEOUT_ATTACHMENT,
} from "../core/index.js";

/** The invocation of one IDL call: the request (or request stream) as its one argument, the options as attachments. */
function invocationOf(
  service: string,
  group: string | undefined,
  version: string | undefined,
  method: IdlMethod,
  input: unknown,
  options: IdlCallOptions,
): Invocation {
  const attachments: Record<string, unknown> = { ...options.metadata };
  if (options.timeoutMs !== undefined) attachments[TIMEOUT_ATTACHMENT] = String(options.timeoutMs);
  return createInvocation({
    service,
    group,
    version,
    method: method.name,
    args: [
      sendsOneMessage(method.kind)
        ? method.createRequest(input)
        : mapMessages(input as AsyncIterable<unknown>, method.createRequest),
    ],
    attachments,
    idl: method,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

/** Invokes `inv`, rejecting as soon as the caller's signal aborts. */
function invokeWithin(invoker: Invoker, inv: Invocation, options: IdlCallOptions): Promise<RpcResult> {
  const invoked = invoker.invoke(inv);
  if (options.signal === undefined) return invoked;
  const what = `${inv.service}/${inv.method}`;
  return raceSignal(invoked, options.signal, (reason) => canceledError(what, reason));
}

/** The messages of a streamed answer; `onMetadata` gets its attachments once it has ended. */
async function* streamedAnswer(
  invoker: Invoker,
  inv: Invocation,
  options: IdlCallOptions,
): AsyncGenerator<unknown> {
  const stream = (await invokeWithin(invoker, inv, options)).value as IdlMessageStream;
  try {
    yield* stream;
  } finally {
    options.onMetadata?.({ ...stream.attachments });
  }
}

/** The one answer of a unary call (the result's value) or of a client stream (its stream's one message). */
async function oneAnswer(invoker: Invoker, inv: Invocation, options: IdlCallOptions): Promise<unknown> {
  if (options.signal?.aborted) throw canceledError(`${inv.service}/${inv.method}`, options.signal.reason);
  if (inv.idl?.kind !== "unary") {
    const answers: unknown[] = [];
    for await (const answer of streamedAnswer(invoker, inv, options)) answers.push(answer);
    if (answers.length !== 1) {
      throw new RpcError(
        `${inv.service}/${inv.method}: the response carried ${answers.length} messages; exactly one was expected`,
        Code.Internal,
      );
    }
    return answers[0];
  }
  const { value, attachments } = await invokeWithin(invoker, inv, options);
  options.onMetadata?.({ ...attachments });
  return value;
}

/**
 * The consumer stub of an IDL service (`app.refer(defineProtoService(...))`): one function per rpc
 * by its generated name. A unary or client-streaming rpc returns a promise of its answer, a
 * server-streaming or bidirectional one an async iterable of answers, which calls when iterated.
 * Below the stub a unary call's result is its answer; every streaming kind's result is an
 * `IdlMessageStream` that the invoker returns once the stream is open, so a cluster retries a
 * stream only when it could not be opened (Java's streams are not retried either).
 * Every call goes through the reference's invoker (mock, cluster, router, balancer, consumer
 * filters, then the protocol); `timeoutMs` becomes the attempt's `timeout`, `metadata` attachments.
 */
export function createIdlStub(definition: ServiceDefinition, invoker: Invoker): Record<string, unknown> {
  const service = definition.interfaceName;
  const url = invoker.url;
  if (definition.idl === undefined) {
    throw new RpcError(
      `${service} is not an IDL service (make it with defineProtoService)`,
      Code.InvalidArgument,
    );
  }
  if (url.serviceInterface !== "" && url.serviceInterface !== service) {
    throw new RpcError(
      `cannot make a ${service} stub over a reference to ${url.serviceInterface} (check the reference's interface)`,
      Code.InvalidArgument,
    );
  }
  const group = url.get("group") || undefined;
  const version = url.get("version") || undefined;
  const stub: Record<string, unknown> = Object.create(null);
  for (const method of definition.idl.methods.values()) {
    const call = (input: unknown, options: IdlCallOptions = {}) =>
      invocationOf(service, group, version, method, input, options);
    stub[method.localName] = answersOneMessage(method.kind)
      ? (input: unknown, options: IdlCallOptions = {}) => oneAnswer(invoker, call(input, options), options)
      : (input: unknown, options: IdlCallOptions = {}): AsyncIterable<unknown> => ({
          [Symbol.asyncIterator]: () => streamedAnswer(invoker, call(input, options), options),
        });
  }
  return Object.freeze(stub);
}
