import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";

/**
 * Cancellation plumbing (style.md §6.6). A consumer call carries the caller's `AbortSignal` (per-call
 * options) down to the exchange, where aborting removes its pending request at once; without one it
 * carries {@link NEVER_ABORTED}, which nobody needs to listen to. Timeouts are not signals: each
 * attempt's `timeout` is enforced where the attempt waits (the exchange's pending call).
 */

/** The reason a call's signal carries once the call has completed normally (provider side). */
export const CALL_COMPLETED: unique symbol = Symbol("dubbo-ts.call-completed");

/** The signal of a call nobody can cancel: one shared instance, so listeners can skip it. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** `signal`, or undefined when it is {@link NEVER_ABORTED} (nothing to listen to). */
export function cancelableSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  return signal === NEVER_ABORTED ? undefined : signal;
}

/**
 * The error of a call ended by its signal: `DeadlineExceeded` when the reason is a timeout (e.g.
 * `AbortSignal.timeout(ms)`, an overall deadline of the caller's), else `Canceled`; the reason is
 * the cause.
 */
export function canceledError(what: string, reason: unknown): RpcError {
  const why = RpcError.from(reason, Code.Canceled);
  const code = why.code === Code.DeadlineExceeded ? Code.DeadlineExceeded : Code.Canceled;
  return new RpcError(`${what} was canceled by its signal: ${why.rawMessage}`, code, { cause: reason });
}

/**
 * Settles with `promise`, or rejects with `onAbort(signal.reason)` as soon as the signal aborts. The
 * original promise stays handled either way, so a late rejection never becomes an unhandled one.
 */
export function raceSignal<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  onAbort: (reason: unknown) => unknown,
): Promise<T> {
  if (signal.aborted) {
    promise.then(undefined, ignore);
    return Promise.reject(onAbort(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const aborted = (): void => reject(onAbort(signal.reason));
    signal.addEventListener("abort", aborted, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", aborted);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", aborted);
        reject(error);
      },
    );
  });
}

function ignore(): void {}
