import { BizError, DEFAULT_EXCEPTION_CLASS, type Filter, RpcError } from "../core/index.js";
import { type CallListener, listenerFilter } from "./call-listener.js";

function className(error: Error): string {
  const ctor = (error as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === "string" && ctor.name !== "" ? ctor.name : error.name;
}

/**
 * What a provider's code threw, as the caller should see it: `BizError` and `RpcError` unchanged,
 * any other `Error` as a `BizError` of `java.lang.RuntimeException` whose message starts with the
 * JavaScript class name (as Java's ExceptionFilter wraps undeclared exceptions), anything else
 * thrown as a `BizError` with its string form. The original stays as `cause`.
 */
export function toProviderError(error: unknown): RpcError | BizError {
  if (error instanceof RpcError || error instanceof BizError) return error;
  if (error instanceof Error) {
    return new BizError(`${className(error)}: ${error.message}`, {
      javaClass: DEFAULT_EXCEPTION_CLASS,
      cause: error,
    });
  }
  return new BizError(`thrown value: ${String(error)}`, { javaClass: DEFAULT_EXCEPTION_CLASS, cause: error });
}

const mapsThrownErrors: CallListener = Object.freeze({
  onError(error: unknown): never {
    throw toProviderError(error);
  },
});

/**
 * Provider side (Java's ExceptionFilter, a listener as there): maps what the user's code threw with
 * {@link toProviderError}.
 */
export const exceptionFilter: Filter = listenerFilter(() => mapsThrownErrors);
