import {
  BizError,
  boundedMemo,
  Code,
  DEFAULT_SERVICE_VERSION,
  type JavaType,
  parseParameterDescriptor,
  RpcError,
  type RpcResult,
  slotTypeOf,
  slotTypeOfValue,
} from "../../core/index.js";
import type { ObjectInput, SerializationTable } from "../../serialize/index.js";
import type { Logger } from "../../transport/index.js";
import type { Executor } from "../shared/dispatch/executor.js";
import type { ExportedService, ExporterTable } from "../shared/exporter-table.js";
import { calledOverload, MissingOverload, providerServiceKey } from "../shared/exporter-table.js";
import type { ProtocolObserver } from "../shared/protocol-observer.js";
import { ProviderInvocation, timeoutFromAttachment } from "../shared/provider-invocation.js";
import { BodyOutputSlot } from "./codec/body-output.js";
import { supportsResponseAttachments } from "./codec/dubbo-version.js";
import { type RequestHead, readRequestArgs, readRequestAttachments } from "./codec/request-body.js";
import { RequestCache } from "./codec/request-cache.js";
import { encodeExceptionResponse, encodeValueResponseFrame } from "./codec/response-body.js";
import type { ErrorReply, OkReply, PendingReply, RequestHandler, ServerRequest } from "./exchange/index.js";
import { Status } from "./exchange/index.js";
import { PermittedSerializations, SERIALIZATION_CHECK_KEY } from "./permitted-serializations.js";

/** Descriptors seen on the wire, parsed once (bounded: a hostile peer cannot grow it forever). */
const DESCRIPTOR_CACHE_LIMIT = 1024;

/** What the handler keeps per serialization a consumer used: its reused output and request cache. */
interface SerializationCodec {
  readonly slot: BodyOutputSlot;
  readonly requests: RequestCache;
}

/** A call's outcome before the executor has started it (a refused call never leaves it). */
const NOT_STARTED: Promise<RpcResult> = new Promise(() => {});

/** One call on its way; the exchange answers it through the handler's `reply`/`replyToError`. */
interface PendingCall extends PendingReply<RpcResult> {
  /** {@link NOT_STARTED} until the executor has started the call. */
  outcome: Promise<RpcResult>;
  readonly codec: SerializationCodec;
  readonly service: ExportedService;
  readonly invocation: ProviderInvocation;
  readonly attach: boolean;
}

export interface ProviderHandlerOptions {
  readonly table: ExporterTable;
  readonly executor: Executor;
  /** `host:port` of the server, for error messages. */
  readonly address: string;
  readonly logger: Logger;
  readonly observer?: ProtocolObserver | undefined;
  /** Where a request's header id finds the serialization its body is in (and its answer goes out in). */
  readonly serializations: SerializationTable;
}

function withVersion(version: string): string {
  return version === "" || version === DEFAULT_SERVICE_VERSION ? "" : `:${version}`;
}

/** `Ljava/lang/String;I` as `java.lang.String, int` (bounded: the descriptor comes from the wire). */
function typeNamesOf(descriptor: string): string {
  if (descriptor.length > 400) return `${descriptor.slice(0, 400)}…`;
  try {
    return parseParameterDescriptor(descriptor)
      .map((t) => t.name)
      .join(", ");
  } catch {
    return descriptor;
  }
}

export function createProviderHandler(options: ProviderHandlerOptions): RequestHandler {
  const { table, executor, address, logger, serializations } = options;
  /** By header id: answers go out in the request's serialization, as Java's `CodecSupport` does. */
  const codecs: Array<SerializationCodec | undefined> = [];
  const descriptorTypes = boundedMemo(DESCRIPTOR_CACHE_LIMIT, parseParameterDescriptor);
  const permitted = new PermittedSerializations(serializations);
  // The exchange reacts to each call's outcome once, in `reply`/`replyToError`: an executor that can
  // hold a call's slot until then adds no reaction of its own.
  const holdsSlots = executor.runHeld !== undefined && executor.release !== undefined;

  function codecOf(id: number): SerializationCodec | undefined {
    const known = codecs[id];
    if (known !== undefined) return known;
    const serialization = serializations.byId(id);
    if (serialization === undefined) return undefined;
    const codec = { slot: new BodyOutputSlot(serialization), requests: new RequestCache(serialization) };
    codecs[id] = codec;
    return codec;
  }

  /** Java answers such a request BAD_REQUEST ("Unrecognized serialize type from consumer: 9"). */
  function unknownSerialization(request: ServerRequest): ErrorReply {
    const message =
      `the provider at ${address} cannot read the request from ${request.channel.remoteAddress}: its body is in ` +
      `serialization id ${request.serializationId}, which this provider does not have (registered: ` +
      `${serializations.describe()}). Set the consumer's \`serialization\` to one of those, or register that ` +
      "serialization on the provider with a plugin";
    logger.warn(message);
    return { status: Status.BAD_REQUEST, message };
  }

  /**
   * Java 3.3 refuses a body in a serialization the service does not permit with status 40 ("Fail
   * to decode request due to: java.io.IOException: Unexpected serialization id:6 received from
   * network, please check if the peer send the right id."), before reading any argument.
   */
  function refusedSerialization(
    request: ServerRequest,
    head: RequestHead,
    exported: readonly ExportedService[],
  ): ErrorReply {
    const id = request.serializationId;
    const name = serializations.byId(id)?.name ?? "unknown";
    const message =
      `Unexpected serialization id:${id} received from network, please check if the peer send the right id. ` +
      `${head.path}${withVersion(head.version)} at ${address} permits ${permitted.describe(exported, head.version)}, ` +
      `not ${name} (id ${id}): set the consumer's \`serialization\` to one of those, or add ${name} to the ` +
      `provider's \`prefer.serialization\` (or \`${SERIALIZATION_CHECK_KEY}: "false"\` in its parameters to read every serialization)`;
    logger.warn(`refused a call from ${request.channel.remoteAddress}: ${message}`);
    return { status: Status.BAD_REQUEST, message };
  }

  /**
   * Java answers a method name and descriptor its contract lacks with status 40 ("Fail to decode
   * request due to: IllegalArgumentException: Service not found:<path>, <method>") and never runs
   * a method; a call with no parameters reaches the service and fails there ("Not found method"),
   * with status 70.
   */
  function signatureMismatch(
    request: ServerRequest,
    head: RequestHead,
    missing: MissingOverload,
  ): ErrorReply {
    const reason = `the provider at ${address} has no method ${head.path}.${head.method}(${typeNamesOf(head.descriptor)}): ${missing.message}`;
    const [status, message] =
      head.descriptor === ""
        ? [Status.SERVICE_ERROR, `Not found method: ${reason}`]
        : [Status.BAD_REQUEST, `Service not found:${head.path}, ${head.method}: ${reason}`];
    logger.warn(`refused a call from ${request.channel.remoteAddress}: ${message}`);
    return { status, message };
  }

  function badRequest(request: ServerRequest, head: RequestHead | undefined, error: unknown): ErrorReply {
    if (error instanceof MissingOverload && head !== undefined)
      return signatureMismatch(request, head, error);
    const what = head === undefined ? "a request" : `${head.path}.${head.method}(${head.descriptor})`;
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn(`could not decode ${what} from ${request.channel.remoteAddress}: ${reason}`);
    return {
      status: Status.BAD_REQUEST,
      message: `the provider at ${address} could not decode ${what}: ${reason}`,
    };
  }

  function notFound(key: string, method: string): RpcError {
    const exported = table.keys;
    return new RpcError(
      `no service "${key}" is exported at ${address} (called method ${method}); exported here: ` +
        `${exported.length === 0 ? "none" : exported.join(", ")}. Check the reference's interface, group and version`,
      Code.Unimplemented,
    );
  }

  /**
   * The type a result is written as: the method's return type, or, when that is Object (or unknown,
   * a generic call), the type the result records (a generic call's declared return type) or the
   * Java type of the argument the function passed through (an `Object echo(Object)` answers the
   * Long it was sent as a Long, as Java's own method would).
   */
  function resultTypeOf(invocation: ProviderInvocation, result: RpcResult): JavaType | undefined {
    const declared = invocation.returnType;
    if (declared !== undefined && declared.kind !== "object") return declared;
    return slotTypeOf(result, "value") ?? slotTypeOfValue(invocation.args, result.value) ?? declared;
  }

  function encodeResult(call: PendingCall, result: RpcResult): OkReply | ErrorReply {
    try {
      const type = resultTypeOf(call.invocation, result);
      return {
        body: encodeValueResponseFrame(call.codec.slot, result.value, type, call.attach, result.attachments),
        framed: true,
      };
    } catch (error) {
      const message = `${call.service.key}.${call.invocation.method} at ${address} could not serialize its result: ${(error as Error).message}`;
      logger.warn(message);
      return { status: Status.BAD_RESPONSE, message };
    }
  }

  function encodeFailure(call: PendingCall, error: unknown): OkReply {
    const exception =
      error instanceof Error ? error : new BizError(`the provider threw a non-Error value: ${String(error)}`);
    return { body: encodeExceptionResponse(call.codec.slot, exception, call.attach, {}) };
  }

  // Shared by every call (the call is `this`), so a call allocates no closure for its answer.
  function reply(this: PendingCall, result: RpcResult): OkReply | ErrorReply {
    if (holdsSlots) executor.release!();
    this.invocation.complete();
    return encodeResult(this, result);
  }

  function replyToError(this: PendingCall, error: unknown): OkReply | ErrorReply {
    if (holdsSlots) executor.release!();
    this.invocation.complete();
    // Framework failures travel as a status; the provider's own exceptions as a Throwable body.
    if (error instanceof RpcError) throw error;
    return encodeFailure(this, error);
  }

  // One function for every call (the invocation rides as the argument), so dispatch allocates no closure.
  function invokeCall(call: PendingCall): Promise<RpcResult> {
    try {
      return call.service.invoker.invoke(call.invocation);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  return (request) => {
    const codec = codecOf(request.serializationId);
    if (codec === undefined) return unknownSerialization(request);
    let head: RequestHead | undefined;
    let args: unknown[];
    let attachments: Record<string, unknown>;
    let returnType: JavaType | undefined;
    let types: readonly JavaType[];
    let input: ObjectInput | undefined;
    try {
      const read = codec.requests.readHead(request.body);
      head = read.head;
      input = read.input;
      const exported = table.forPath(head.path);
      if (!permitted.permits(exported, head.version, request.serializationId)) {
        codec.requests.release(input);
        return refusedSerialization(request, head, exported);
      }
      // The called overload's types, or, without a contract and for `$invoke`/`$echo`, the descriptor's.
      const method = calledOverload(exported, head.method, head.descriptor);
      returnType = method?.returnType;
      types = method?.parameterTypes ?? descriptorTypes(head.descriptor);
      args = readRequestArgs(read.input, types);
      attachments = codec.requests.readAttachments(request.body, read.input, readRequestAttachments);
    } catch (error) {
      if (input !== undefined) codec.requests.release(input);
      return badRequest(request, head, error);
    }
    const attach = supportsResponseAttachments(head.dubboVersion);
    const group = attachments.group;
    const key = providerServiceKey(head.path, group, head.version);
    const service = table.find(key);
    if (service === undefined) throw notFound(key, head.method);
    // Java puts these into the attachments before the map it read; the map's own values win.
    if (attachments.path === undefined) attachments.path = head.path;
    if (attachments.version === undefined) attachments.version = head.version;
    if (attachments.dubbo === undefined) attachments.dubbo = head.dubboVersion;
    const timeout = timeoutFromAttachment(attachments.timeout);
    const version = head.version === "" || head.version === "0.0.0" ? undefined : head.version;
    const call: PendingCall = {
      codec,
      service,
      attach,
      outcome: NOT_STARTED,
      reply,
      replyToError,
      invocation: new ProviderInvocation({
        service: head.path,
        group: typeof group === "string" && group !== "" ? group : undefined,
        version,
        method: head.method,
        parameterTypes: types,
        returnType,
        args,
        attachments,
        deadline: timeout === undefined ? undefined : Date.now() + timeout,
        oneWay: !request.twoWay,
        remoteAddress: request.channel.remoteAddress,
      }),
    };
    const outcome = holdsSlots ? executor.runHeld!(invokeCall, call) : executor.run(invokeCall, call);
    if (outcome !== undefined) {
      call.outcome = outcome;
      return call;
    }
    options.observer?.poolExhausted(address, executor.active, executor.queued);
    return {
      status: Status.SERVER_THREADPOOL_EXHAUSTED_ERROR,
      message:
        `the provider at ${address} is busy: ${service.key}.${head.method} was refused because ` +
        `${executor.active} calls are running and ${executor.queued} waiting (${executor.description}); ` +
        "raise `threads`/`queues` on the provider or add providers",
    };
  };
}
