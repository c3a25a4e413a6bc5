import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";

/**
 * Cancellation and deadline plumbing (style.md §6.6). Every call carries one `AbortSignal` that
 * aborts on the caller's cancel, on the deadline, or when the call completes, so whatever listens
 * to it (a pending request, a provider's downstream work) can always let go.
 */

/** The reason a call's signal carries once the call has completed normally. */
export const CALL_COMPLETED: unique symbol = Symbol("dubbo-ts.call-completed");

export interface DeadlineSignal {
  /** Aborts with the timeout reason when the time is up. */
  readonly signal: AbortSignal;
  /** Absolute epoch ms of the deadline, or undefined when there is none. */
  readonly deadline: number | undefined;
  /** Clears the timer; call it when the work finishes so nothing keeps the process alive. */
  cleanup(): void;
}

const NO_CLEANUP = (): void => {};

function isUsableTimeout(timeoutMs: number | undefined): timeoutMs is number {
  return timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0;
}

function abortWithTimeout(controller: AbortController, timeoutMs: number, reason?: () => unknown): void {
  controller.abort(
    reason === undefined
      ? new RpcError(`the operation timed out after ${timeoutMs} ms`, Code.DeadlineExceeded)
      : reason(),
  );
}

/**
 * A signal that aborts after `timeoutMs` with `reason()` (default: an `RpcError` DeadlineExceeded).
 * `undefined`, zero, negative or non-finite timeouts mean "no deadline": the signal never aborts by
 * itself. The timer stays referenced on purpose: it guards a call someone is awaiting, and `cleanup()`
 * clears it as soon as the call settles.
 */
export function createDeadlineSignal(timeoutMs: number | undefined, reason?: () => unknown): DeadlineSignal {
  const controller = new AbortController();
  if (!isUsableTimeout(timeoutMs)) {
    return { signal: controller.signal, deadline: undefined, cleanup: NO_CLEANUP };
  }
  const timer = setTimeout(abortWithTimeout, timeoutMs, controller, timeoutMs, reason);
  return {
    signal: controller.signal,
    deadline: Date.now() + timeoutMs,
    cleanup: () => clearTimeout(timer),
  };
}

/**
 * An AbortController that aborts (with the first input's reason) as soon as any input signal aborts,
 * and then stops listening to all of them. An input that is already aborted aborts it at once.
 */
export function createLinkedAbortController(
  ...signals: ReadonlyArray<AbortSignal | undefined>
): AbortController {
  const controller = new AbortController();
  const inputs = signals.filter((s): s is AbortSignal => s !== undefined);
  const already = inputs.find((s) => s.aborted);
  if (already !== undefined) {
    controller.abort(already.reason);
    return controller;
  }
  const onAbort = (event: Event): void => {
    for (const s of inputs) s.removeEventListener("abort", onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const s of inputs) s.addEventListener("abort", onAbort);
  // Also detach when the linked controller is aborted from outside, so inputs do not keep it alive.
  controller.signal.addEventListener(
    "abort",
    () => {
      for (const s of inputs) s.removeEventListener("abort", onAbort);
    },
    { once: true },
  );
  return controller;
}

/**
 * The call's signal: linked to an optional caller signal, aborted by the deadline, and aborted with
 * {@link CALL_COMPLETED} by `done()` when the call settles (after clearing the timer).
 */
export interface CallSignal {
  readonly signal: AbortSignal;
  readonly deadline: number | undefined;
  done(): void;
}

export function createCallSignal(
  timeoutMs: number | undefined,
  options: { readonly parent?: AbortSignal | undefined; readonly onTimeout?: () => unknown } = {},
): CallSignal {
  const controller =
    options.parent === undefined ? new AbortController() : createLinkedAbortController(options.parent);
  if (!isUsableTimeout(timeoutMs)) {
    return { signal: controller.signal, deadline: undefined, done: () => controller.abort(CALL_COMPLETED) };
  }
  const timer = setTimeout(abortWithTimeout, timeoutMs, controller, timeoutMs, options.onTimeout);
  return {
    signal: controller.signal,
    deadline: Date.now() + timeoutMs,
    done: () => {
      clearTimeout(timer);
      controller.abort(CALL_COMPLETED);
    },
  };
}

/**
 * Settles with `promise`, or rejects with the signal's reason if the signal aborts first. The original
 * promise stays handled either way, so a late rejection never becomes an unhandled one.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.then(undefined, NO_CLEANUP);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
