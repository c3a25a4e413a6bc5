import { BizError } from "./biz-error.js";
import { Code, codeToString } from "./code.js";

const kRpcError = Symbol.for("dubbo-ts.RpcError");

export interface RpcErrorOptions {
  readonly cause?: unknown;
  readonly attachments?: Readonly<Record<string, unknown>>;
}

/**
 * Every failure of the framework itself (network, timeout, no provider, bad configuration,
 * serialization, overload) is an `RpcError` with a code from the closed {@link Code} set.
 * The message is prefixed with the code name so logs always show it.
 */
export class RpcError extends Error {
  override name = "RpcError";
  readonly code: Code;
  /** The message without the `[code]` prefix. */
  readonly rawMessage: string;
  readonly attachments: Readonly<Record<string, unknown>>;

  constructor(message: string, code: Code = Code.Unknown, options: RpcErrorOptions = {}) {
    super(
      `[${codeToString(code)}] ${message}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.rawMessage = message;
    this.attachments = options.attachments ?? {};
  }

  /** Turns anything caught at a boundary into an `RpcError`, keeping the original as `cause`. */
  static from(reason: unknown, code: Code = Code.Unknown): RpcError {
    if (reason instanceof RpcError) return reason;
    if (reason instanceof Error) {
      if (reason.name === "AbortError") return new RpcError(reason.message, Code.Canceled, { cause: reason });
      if (reason.name === "TimeoutError")
        return new RpcError(reason.message, Code.DeadlineExceeded, { cause: reason });
      return new RpcError(reason.message, code, { cause: reason });
    }
    return new RpcError(String(reason), code, { cause: reason });
  }

  /** `instanceof` works across two loaded copies of the package (ESM and CJS, or two versions). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[kRpcError] === true
    );
  }

  get [kRpcError](): boolean {
    return true;
  }
}

/**
 * Whether failover may try the call again on another provider. As Java's FailoverClusterInvoker,
 * every failure that is not the provider's own answer is retried: network, timeout, busy, and
 * also a provider's error statuses (SERVICE_NOT_FOUND 60 and SERVICE_ERROR 70 among them: Java
 * turns every non-OK status but the timeouts into a network RpcException), serialization
 * failures, and anything thrown below the cluster. A {@link BizError} is the provider's answer and
 * is never retried; neither is a call the caller canceled.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof BizError) return false;
  return !(error instanceof RpcError && error.code === Code.Canceled);
}
