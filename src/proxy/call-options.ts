import { type Attachments, TIMEOUT_ATTACHMENT } from "../core/index.js";
import type { EchoService } from "./echo-service.js";

/**
 * Options for the calls made through one stub view (connect-es `CallOptions`), given apart from
 * the method's arguments so neither can be taken for the other:
 *
 * ```ts
 * const hello = await withCallOptions(stub, { timeoutMs: 5000, signal }).sayHello("x");
 * ```
 */
export interface CallOptions {
  /**
   * This call's timeout, ms: how long each attempt waits for its provider (a failover retry gets it
   * anew), in place of the reference's `timeoutMs` (Dubbo key `timeout`). It travels as the call's
   * `timeout` attachment, as Java's `RpcContext.getContext().setAttachment("timeout", …)` does, and
   * the provider receives it. An integer from 1 to 2147483647.
   */
  readonly timeoutMs?: number;
  /**
   * Cancels the call: it rejects at once with `Canceled` (`DeadlineExceeded` when the reason is a
   * timeout, as from `AbortSignal.timeout(ms)`, which makes an overall deadline across retries),
   * its pending request is removed from the connection, and no further attempt starts.
   */
  readonly signal?: AbortSignal;
  /** Attachments (Dubbo's implicit parameters) for these calls only, over the `RpcContext`'s. */
  readonly attachments?: Readonly<Record<string, string | number | boolean>>;
}

/** Call options checked and reduced to what the call needs: its signal and extra attachments. */
export interface ResolvedCallOptions {
  readonly signal: AbortSignal | undefined;
  /** The options' attachments, with `timeoutMs` as the `timeout` attachment. */
  readonly attachments: Attachments | undefined;
}

/** Under this key a stub keeps the function that makes its view with more call options. */
export const BIND_CALL_OPTIONS: unique symbol = Symbol("dubbo-ts.bind-call-options");

interface OptionsBindable {
  readonly [BIND_CALL_OPTIONS]: (options: ResolvedCallOptions) => object;
}

const OPTION_NAMES: ReadonlySet<string> = new Set(["timeoutMs", "signal", "attachments"]);
const MAX_TIMEOUT_MS = 2_147_483_647;

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function resolveAttachments(given: unknown): Record<string, string | number | boolean> {
  if (given === undefined) return {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new TypeError(`call option attachments must be an object of strings, got ${describe(given)}`);
  }
  const attachments: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new TypeError(
        `call option attachments.${key} must be a string, number or boolean, got ${describe(value)}`,
      );
    }
    attachments[key] = value;
  }
  return attachments;
}

/** Checks `options` (unknown names and bad values throw a `TypeError` naming them). */
function resolveCallOptions(options: CallOptions): ResolvedCallOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`call options must be an object, got ${describe(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) {
      throw new TypeError(`unknown call option "${name}" (the options: ${[...OPTION_NAMES].join(", ")})`);
    }
  }
  const { timeoutMs, signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`call option signal must be an AbortSignal, got ${describe(signal)}`);
  }
  const attachments = resolveAttachments(options.attachments);
  if (timeoutMs !== undefined) {
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
      throw new TypeError(
        `call option timeoutMs must be an integer from 1 to ${MAX_TIMEOUT_MS} (ms), got ${describe(timeoutMs)}`,
      );
    }
    attachments[TIMEOUT_ATTACHMENT] = String(timeoutMs);
  }
  return {
    signal,
    attachments: Object.keys(attachments).length === 0 ? undefined : Object.freeze(attachments),
  };
}

/** `next` over `base`: later attachments win, and either signal cancels. */
export function mergeCallOptions(
  base: ResolvedCallOptions | undefined,
  next: ResolvedCallOptions,
): ResolvedCallOptions {
  if (base === undefined) return next;
  const signals = [base.signal, next.signal].filter((s): s is AbortSignal => s !== undefined);
  const attachments =
    base.attachments === undefined || next.attachments === undefined
      ? (next.attachments ?? base.attachments)
      : Object.freeze({ ...base.attachments, ...next.attachments });
  return { signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0], attachments };
}

/**
 * A view of `stub` (from `app.refer`, `createStub` or `createGenericStub`) whose calls carry
 * `options`; the stub itself is unchanged. A view of a view adds its options over the first's.
 * Bad options throw a `TypeError` naming the option.
 */
export function withCallOptions<S extends EchoService>(stub: S, options: CallOptions): S {
  const bind = (stub as Partial<OptionsBindable>)[BIND_CALL_OPTIONS];
  if (typeof bind !== "function") {
    throw new TypeError(
      "withCallOptions takes a stub made by app.refer(), createStub() or createGenericStub()",
    );
  }
  return bind(resolveCallOptions(options)) as S;
}
