import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import { DeadlineTimers } from "./deadline-timers.js";
import { CALL_COMPLETED } from "./signals.js";

const PENDING: unique symbol = Symbol("dubbo-ts.call-pending");

function noop(): void {}

/**
 * One call's cancellation state: a deadline timer, and an `AbortSignal` created only when someone
 * reads it. Node 20 spends several microseconds building each AbortSignal, more than a whole
 * in-process call, so a call that nobody listens to never pays for one; a signal read later still
 * reflects an abort that already happened. `done()` clears the timer and aborts with
 * {@link CALL_COMPLETED} (style.md §6.6: the signal aborts on completion too).
 */
export class CallControl {
  /** Absolute epoch ms of the deadline, or undefined when there is none. */
  readonly deadline: number | undefined;
  #controller: AbortController | undefined;
  #reason: unknown = PENDING;
  /**
   * The deadlines of every call in the process, on one timer per distinct timeout. An armed deadline
   * keeps the process alive, as the referenced timer of an awaited call should.
   */
  static readonly #deadlines = new DeadlineTimers<CallControl>((control) => control.#expire(), {
    keepAlive: true,
  });
  /** The timeout whose deadline is armed, or undefined when none is (none, expired or cleared). */
  #armedMs: number | undefined;
  readonly #onTimeout: (() => unknown) | undefined;
  #reject: ((reason: unknown) => void) | undefined;

  /** `timeoutMs` undefined, zero, negative or not finite means no deadline. */
  constructor(timeoutMs: number | undefined, onTimeout?: () => unknown) {
    this.#onTimeout = onTimeout;
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0) {
      this.deadline = Date.now() + timeoutMs;
      // Keeps the process alive on purpose: it guards a call someone awaits; done() clears it.
      this.#armedMs = timeoutMs;
      CallControl.#deadlines.add(this, timeoutMs);
    } else {
      this.deadline = undefined;
    }
  }

  #expire(): void {
    const timeoutMs = this.#armedMs;
    this.#armedMs = undefined;
    this.abort(
      this.#onTimeout === undefined
        ? new RpcError(`the call timed out after ${timeoutMs} ms`, Code.DeadlineExceeded)
        : this.#onTimeout(),
    );
  }

  /** The call's signal, created on first read (already aborted if the call was). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#reason !== PENDING) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#reason !== PENDING;
  }

  /** Aborts the call (first reason wins): the signal aborts and a pending `race` rejects. */
  abort(reason: unknown): void {
    if (this.#reason !== PENDING) return;
    this.#reason = reason;
    if (this.#armedMs !== undefined) CallControl.#deadlines.delete(this, this.#armedMs);
    this.#armedMs = undefined;
    this.#controller?.abort(reason);
    const reject = this.#reject;
    this.#reject = undefined;
    reject?.(reason);
  }

  /**
   * Settles with `promise`, or rejects with the abort reason (e.g. the deadline) if the call is
   * aborted first. The original promise stays handled, so a late rejection is never unhandled.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.#reason !== PENDING) {
      promise.then(undefined, noop);
      return Promise.reject(this.#reason);
    }
    if (this.#armedMs === undefined) return promise;
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      promise.then(resolve, reject);
    });
  }

  /**
   * Like {@link race} followed by `done()` and `map`, in one promise: settles with `map(value)` when
   * `promise` fulfils first, with its rejection, or with the abort reason (e.g. the deadline) if the
   * call is aborted first; the control is done when it settles. A throw from `map` rejects.
   */
  settle<T, R>(promise: Promise<T>, map: (value: T) => R): Promise<R> {
    if (this.#reason !== PENDING) {
      promise.then(undefined, noop);
      return Promise.reject(this.#reason);
    }
    return new Promise<R>((resolve, reject) => {
      this.#reject = reject;
      promise.then(
        (value) => {
          if (this.#reason !== PENDING) return;
          this.done();
          try {
            resolve(map(value));
          } catch (error) {
            reject(error);
          }
        },
        (error: unknown) => {
          if (this.#reason !== PENDING) return;
          this.done();
          reject(error);
        },
      );
    });
  }

  /** The call settled: clears the timer and aborts a created signal with {@link CALL_COMPLETED}. */
  done(): void {
    this.#reject = undefined;
    this.abort(CALL_COMPLETED);
  }
}
