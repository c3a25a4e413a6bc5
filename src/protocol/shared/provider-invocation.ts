import { CALL_COMPLETED, Code, LazySignalInvocation, RpcError } from "../../core/index.js";

function abortAtDeadline(inv: ProviderInvocation, controller: AbortController): void {
  controller.abort(
    new RpcError(
      `${inv.service}.${inv.method}: the caller's timeout passed while the provider was still working`,
      Code.DeadlineExceeded,
    ),
  );
}

/**
 * A call as the provider decoded it. Its `signal` aborts when the caller's deadline (the `timeout`
 * attachment, from when the request arrived) passes or when the call completes. With
 * `timesItsDeadline` false its protocol keeps the deadline (on the application's timer wheel) and
 * cancels it when the deadline passes, so the signal arms no timer of its own.
 */
export class ProviderInvocation extends LazySignalInvocation {
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout | undefined;
  #completed = false;
  readonly #timesItsDeadline: boolean;

  constructor(init: ConstructorParameters<typeof LazySignalInvocation>[0], timesItsDeadline = true) {
    super(init);
    this.#timesItsDeadline = timesItsDeadline;
  }

  /** The signal and its deadline timer are made only if some code asks for the signal. */
  protected currentSignal(): AbortSignal {
    return this.#signal();
  }

  #signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      if (this.#completed) controller.abort(CALL_COMPLETED);
      else if (this.deadline !== undefined && this.#timesItsDeadline) {
        const left = this.deadline - Date.now();
        if (left <= 0) abortAtDeadline(this, controller);
        else {
          this.#timer = setTimeout(abortAtDeadline, left, this, controller);
          this.#timer.unref();
        }
      }
    }
    return this.#controller.signal;
  }

  /** The caller went away (Triple's RST_STREAM): aborts the signal with `reason` and ends the call. */
  cancel(reason: RpcError): void {
    if (this.#completed) return;
    this.#controller?.abort(reason);
    this.complete();
  }

  /** Ends the call: stops the deadline timer and aborts the signal (if anyone took it) as completed. */
  complete(): void {
    this.#completed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#controller?.abort(CALL_COMPLETED);
  }
}

/** The caller's timeout from the `timeout` attachment: Java sends an int, older peers a string. */
export function timeoutFromAttachment(value: unknown): number | undefined {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && value !== ""
        ? Number(value)
        : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
