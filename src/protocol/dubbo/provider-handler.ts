import {
  BizError,
  Code,
  type JavaType,
  parseParameterDescriptor,
  RpcError,
  type RpcResult,
} from "../../core/index.js";
import type { ErrorReply, OkReply, RequestHandler, ServerRequest } from "../../exchange/index.js";
import { Status } from "../../exchange/index.js";
import type { Logger } from "../../transport/index.js";
import { BodyWriterSlot } from "./codec/body-writer.js";
import { supportsResponseAttachments } from "./codec/dubbo-version.js";
import { type RequestHead, readRequestArgs, readRequestAttachments } from "./codec/request-body.js";
import { RequestCache } from "./codec/request-cache.js";
import { encodeExceptionResponse, encodeValueResponseFrame } from "./codec/response-body.js";
import type { Executor } from "./dispatch/executor.js";
import type { DubboObserver } from "./dubbo-observer.js";
import type { ExportedService, ExporterTable } from "./exporter-table.js";
import { providerServiceKey } from "./exporter-table.js";
import { ProviderInvocation, timeoutFromAttachment } from "./provider-invocation.js";

export const ECHO_METHOD = "$echo";
const GENERIC_METHODS: ReadonlySet<string> = new Set(["$invoke", "$invokeAsync"]);

/** Descriptors seen on the wire, parsed once (bounded: a hostile peer cannot grow it forever). */
const DESCRIPTOR_CACHE_LIMIT = 1024;

interface PendingCall {
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
  readonly observer?: DubboObserver | undefined;
}

export function createProviderHandler(options: ProviderHandlerOptions): RequestHandler {
  const { table, executor, address, logger } = options;
  const slot = new BodyWriterSlot();
  const requests = new RequestCache();
  const descriptors = new Map<string, JavaType[]>();

  function typesOf(head: RequestHead): { types: readonly JavaType[]; returnType: JavaType | undefined } {
    const method = table.anyForPath(head.path)?.methods.get(head.method);
    if (method !== undefined && method.descriptor === head.descriptor) {
      return { types: method.parameterTypes, returnType: method.returnType };
    }
    let types = descriptors.get(head.descriptor);
    if (types === undefined) {
      types = parseParameterDescriptor(head.descriptor);
      if (descriptors.size < DESCRIPTOR_CACHE_LIMIT) descriptors.set(head.descriptor, types);
    }
    return { types, returnType: method?.returnType };
  }

  function badRequest(request: ServerRequest, head: RequestHead | undefined, error: unknown): ErrorReply {
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

  function unknownMethod(service: ExportedService, method: string): RpcError {
    return new RpcError(
      `${service.key} at ${address} has no method "${method}" (methods: ${[...service.methods.keys()].join(", ") || "none"})`,
      Code.Unimplemented,
    );
  }

  function encodeResult(call: PendingCall, result: RpcResult): OkReply | ErrorReply {
    try {
      return {
        body: encodeValueResponseFrame(
          slot,
          result.value,
          call.invocation.returnType,
          call.attach,
          result.attachments,
        ),
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
    return { body: encodeExceptionResponse(slot, exception, call.attach, {}) };
  }

  function onSettled(call: PendingCall): void {
    call.invocation.complete();
  }

  // One function for every call (the call rides as the argument), so dispatch allocates no closure.
  function invokeCall(call: PendingCall): Promise<OkReply | ErrorReply> {
    let promise: Promise<RpcResult>;
    try {
      promise = call.service.invoker.invoke(call.invocation);
    } catch (error) {
      promise = Promise.reject(error);
    }
    return promise.then(
      (result) => {
        onSettled(call);
        return encodeResult(call, result);
      },
      (error: unknown) => {
        onSettled(call);
        // Framework failures travel as a status; the provider's own exceptions as a Throwable body.
        if (error instanceof RpcError) throw error;
        return encodeFailure(call, error);
      },
    );
  }

  return (request) => {
    let head: RequestHead | undefined;
    let args: unknown[];
    let attachments: Record<string, unknown>;
    let returnType: JavaType | undefined;
    let types: readonly JavaType[];
    try {
      const read = requests.readHead(request.body);
      head = read.head;
      const typed = typesOf(head);
      returnType = typed.returnType;
      types = typed.types;
      args = readRequestArgs(read.reader, types);
      attachments = requests.readAttachments(request.body, read.reader, readRequestAttachments);
    } catch (error) {
      return badRequest(request, head, error);
    }
    const attach = supportsResponseAttachments(head.dubboVersion);
    if (head.method === ECHO_METHOD && args.length === 1) {
      return { body: encodeValueResponseFrame(slot, args[0], undefined, attach, {}), framed: true };
    }
    const group = attachments.group;
    const key = providerServiceKey(head.path, group, head.version);
    const service = table.find(key);
    if (service === undefined) throw notFound(key, head.method);
    if (service.methods.size > 0 && !service.methods.has(head.method) && !GENERIC_METHODS.has(head.method)) {
      throw unknownMethod(service, head.method);
    }
    if (service.token !== undefined && attachments.token !== service.token) {
      throw new RpcError(
        `invalid token: ${service.key}.${head.method} at ${address} refuses ${request.channel.remoteAddress} ` +
          "(the caller must send the provider's `token`, which it learns from the registry)",
        Code.PermissionDenied,
      );
    }
    // Java puts these into the attachments before the map it read; the map's own values win.
    if (attachments.path === undefined) attachments.path = head.path;
    if (attachments.version === undefined) attachments.version = head.version;
    if (attachments.dubbo === undefined) attachments.dubbo = head.dubboVersion;
    const timeout = timeoutFromAttachment(attachments.timeout);
    const version = head.version === "" || head.version === "0.0.0" ? undefined : head.version;
    const call: PendingCall = {
      service,
      attach,
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
    const running = executor.run(invokeCall, call);
    if (running !== undefined) return running;
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
