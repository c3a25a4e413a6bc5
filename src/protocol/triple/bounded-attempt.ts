import {
  attemptTimeoutError,
  Code,
  cancelableSignal,
  canceledError,
  type DeadlineTimers,
  type Invocation,
  RpcError,
  type TimedEntry,
} from "../../core/index.js";

/** What every attempt of one reference shares, made once per reference. */
export interface AttemptScope {
  readonly deadlines: DeadlineTimers;
  readonly service: string;
  /** `host:port` of the provider. */
  readonly address: string;
}

const ONCE = { once: true } as const;

/**
 * One Triple attempt's bounds: its timeout on the protocol's deadline timers (none for a stream
 * without a deadline of its own, `timeoutMs` undefined) and the call's signal, either of which
 * ends it through {@link cancel}. The attempt is its own timer entry and its own abort listener
 * (`handleEvent`), as the dubbo protocol's pending call is, so bounding a call costs this one
 * object rather than a closure for each.
 */
export abstract class BoundedAttempt implements TimedEntry {
  deadlineDueAt = 0;
  deadlineQueue: TimedEntry["deadlineQueue"] = undefined;
  deadlinePrevious: TimedEntry | undefined = undefined;
  deadlineNext: TimedEntry | undefined = undefined;
  /** `Service.method to host:port`, in every error of the call. */
  protected readonly what: string;
  readonly #scope: AttemptScope;
  readonly #inv: Invocation;
  readonly #timeoutMs: number | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #started = performance.now();
  #armed = false;

  constructor(scope: AttemptScope, inv: Invocation, what: string, timeoutMs: number | undefined) {
    this.#scope = scope;
    this.#inv = inv;
    this.what = what;
    this.#timeoutMs = timeoutMs;
    this.#signal = cancelableSignal(inv.signal);
  }

  /** Ends the attempt with `reason` (its deadline passed, or its signal aborted). */
  protected abstract cancel(reason: RpcError): void;

  /** Starts the bounds, once the attempt's stream is open. */
  protected arm(): void {
    this.#armed = true;
    if (this.#timeoutMs !== undefined) this.#scope.deadlines.add(this, this.#timeoutMs);
    const signal = this.#signal;
    if (signal === undefined) return;
    signal.addEventListener("abort", this, ONCE);
    if (signal.aborted) this.handleEvent();
  }

  /** Stops the bounds, once the attempt's stream has closed. */
  disarm(): void {
    if (!this.#armed) return;
    this.#armed = false;
    if (this.#timeoutMs !== undefined) this.#scope.deadlines.delete(this, this.#timeoutMs);
    this.#signal?.removeEventListener("abort", this);
  }

  onDeadline(): void {
    this.cancel(this.#deadlineError(this.#timeoutMs ?? 0, Math.round(performance.now() - this.#started)));
  }

  /** The call's signal aborted. */
  handleEvent(): void {
    this.cancel(canceledError(this.what, this.#signal?.reason));
  }

  /** A unary attempt's timeout names the reference's settings; a stream's deadline is its caller's own. */
  #deadlineError(timeoutMs: number, elapsedMs: number): RpcError {
    const inv = this.#inv;
    if (isStream(inv)) {
      return new RpcError(
        `${this.what}: the stream's deadline of ${timeoutMs} ms (its per-call timeoutMs) passed after ${elapsedMs} ms`,
        Code.DeadlineExceeded,
      );
    }
    const { service, address } = this.#scope;
    return attemptTimeoutError({ service, method: inv.method, address, elapsedMs, timeoutMs });
  }
}

/** An IDL call other than unary: a server, client or bidirectional stream. */
export function isStream(inv: Invocation): boolean {
  return inv.idl !== undefined && inv.idl.kind !== "unary";
}
