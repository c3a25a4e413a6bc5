import {
  attemptTimeoutError,
  Code,
  canceledError,
  DeadlineTimers,
  RpcError,
  type TimedEntry,
} from "../../../core/index.js";
import { CallTable } from "./call-table.js";
import type { CallLabels, Response } from "./message.js";
import { codeFromStatus, Status, statusName } from "./status.js";

/**
 * Turns a call's OK response (its body, in the serialization its header names) into what its
 * promise resolves with (the protocol's decoding); a throw rejects the call instead. Runs when the
 * response arrives, so the caller's promise is the only one per call, and the response makes no
 * record of its own. Make one per method, not per call.
 */
export type ResponseReader<T> = (body: Buffer, serializationId: number, id: number) => T;

/** The reader of callers that take the response as it came. */
export const RAW_RESPONSE: ResponseReader<Response> = (body, serializationId, id) => ({
  id,
  status: Status.OK,
  serializationId,
  body,
});

/**
 * The calls of one client waiting for their responses, each with its own timeout (on timers shared
 * by every link of the protocol) and, when the caller can cancel it, its signal.
 */
export interface PendingCalls {
  readonly size: number;
  /**
   * Registers a sent request; the promise settles on its response, its timeout, a disconnect, or
   * the abort of `signal` (the entry is removed at once). `signal` must not be aborted already.
   */
  add<T>(
    id: number,
    call: CallLabels,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    read: ResponseReader<T>,
  ): Promise<T>;
  /**
   * Settles the call `id` with what its reader makes of an OK response's body; false when no such
   * call waits (e.g. it timed out).
   */
  resolve(id: number, serializationId: number, body: Buffer): boolean;
  /** Fails the call `id` with the code of a non-OK status and the provider's message. */
  fail(id: number, status: number, message: string): void;
  failWith(id: number, message: string, code: Code): void;
  /** Fails every waiting call at once with `Unavailable` (the link went down). */
  failAll(cause: Error | undefined): void;
}

/**
 * One waiting call. It is its own timer entry and its own abort listener (`handleEvent`), so a
 * call costs no closure or timer of its own.
 */
class PendingCall implements TimedEntry {
  deadlineDueAt = 0;
  deadlineQueue: TimedEntry["deadlineQueue"] = undefined;
  deadlinePrevious: TimedEntry | undefined = undefined;
  deadlineNext: TimedEntry | undefined = undefined;

  constructor(
    readonly table: PendingTable,
    /** `performance.now()` when the call was sent; its deadline is counted from the same reading. */
    readonly startedAt: number,
    readonly id: number,
    readonly call: CallLabels,
    readonly timeoutMs: number,
    readonly signal: AbortSignal | undefined,
    readonly read: ResponseReader<unknown>,
    /** The promise's resolve, for the type `read` returns. */
    readonly resolve: (value: unknown) => void,
    readonly reject: (error: unknown) => void,
  ) {}

  /** The response arrived: the caller gets what the reader makes of it, or what it threw. */
  settle(serializationId: number, body: Buffer): void {
    let value: unknown;
    try {
      value = this.read(body, serializationId, this.id);
    } catch (error) {
      this.reject(error);
      return;
    }
    this.resolve(value);
  }

  onDeadline(): void {
    this.table.expire(this);
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.table.cancel(this);
  }
}

/** Whole milliseconds since `startedAt` (a `performance.now()` reading), for error messages. */
function elapsedSince(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

/**
 * The resolving functions of the promise a call gets, passed out by one shared executor instead of
 * a closure made per call (that closure and its context were 161 B of every consumer call). An
 * executor runs synchronously inside `new Promise`, so the line after it reads this call's pair;
 * it then clears them, so no settled promise stays reachable from here.
 */
let handedResolve: ((value: unknown) => void) | undefined;
let handedReject: ((error: unknown) => void) | undefined;

function handOverSettlers(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  handedResolve = resolve as (value: unknown) => void;
  handedReject = reject;
}

/** A timeout of 0 or less expires on the next turn of the event loop. */
function expireNow(entry: PendingCall): void {
  entry.onDeadline();
}

class PendingTable implements PendingCalls {
  readonly #calls = new CallTable<PendingCall>();
  readonly #address: string;
  readonly #timers: DeadlineTimers;

  constructor(address: string, timers: DeadlineTimers) {
    this.#address = address;
    this.#timers = timers;
  }

  get size(): number {
    return this.#calls.size;
  }

  add<T>(
    id: number,
    call: CallLabels,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    read: ResponseReader<T>,
  ): Promise<T> {
    const promise = new Promise<T>(handOverSettlers);
    const resolve = handedResolve!;
    const reject = handedReject!;
    handedResolve = undefined;
    handedReject = undefined;
    // One clock reading for the start and the deadline (a clock read is not free on every host).
    const now = performance.now();
    const entry = new PendingCall(this, now, id, call, timeoutMs, signal, read, resolve, reject);
    this.#calls.add(entry);
    if (timeoutMs > 0) this.#timers.add(entry, timeoutMs, now);
    else setImmediate(expireNow, entry).unref();
    signal?.addEventListener("abort", entry);
    return promise;
  }

  /** Removes `entry` if it still waits, with its timer and its abort listener. */
  #release(entry: PendingCall | undefined): entry is PendingCall {
    if (entry === undefined || !this.#calls.remove(entry)) return false;
    if (entry.timeoutMs > 0) this.#timers.delete(entry, entry.timeoutMs);
    entry.signal?.removeEventListener("abort", entry);
    return true;
  }

  expire(entry: PendingCall): void {
    if (!this.#release(entry)) return;
    entry.reject(
      attemptTimeoutError({
        service: entry.call.service,
        method: entry.call.method,
        address: this.#address,
        elapsedMs: elapsedSince(entry.startedAt),
        timeoutMs: entry.timeoutMs,
      }),
    );
  }

  cancel(entry: PendingCall): void {
    if (!this.#release(entry)) return;
    const elapsed = elapsedSince(entry.startedAt);
    entry.reject(
      canceledError(
        `${entry.call.service}.${entry.call.method} to ${this.#address} (after ${elapsed} ms)`,
        entry.signal?.reason,
      ),
    );
  }

  resolve(id: number, serializationId: number, body: Buffer): boolean {
    const entry = this.#calls.get(id);
    if (!this.#release(entry)) return false;
    entry.settle(serializationId, body);
    return true;
  }

  fail(id: number, status: number, message: string): void {
    const entry = this.#calls.get(id);
    if (!this.#release(entry)) return;
    entry.reject(
      new RpcError(
        `${entry.call.service}.${entry.call.method} at ${this.#address} failed with ${statusName(status)}: ${message}`,
        codeFromStatus(status),
        { attachments: { dubboStatus: status } },
      ),
    );
  }

  failWith(id: number, message: string, code: Code): void {
    const entry = this.#calls.get(id);
    if (!this.#release(entry)) return;
    entry.reject(new RpcError(`${entry.call.service}.${entry.call.method}: ${message}`, code));
  }

  failAll(cause: Error | undefined): void {
    if (this.#calls.size === 0) return;
    const now = performance.now();
    for (const entry of this.#calls.values()) {
      this.#release(entry);
      entry.reject(
        new RpcError(
          `the connection to ${this.#address} closed while ${entry.call.service}.${entry.call.method} ` +
            `waited ${Math.round(now - entry.startedAt)} ms for its response`,
          Code.Unavailable,
          { cause },
        ),
      );
    }
  }
}

/**
 * The pending calls of the client of `address`. `timers` are the protocol's shared deadline timers;
 * a client made on its own gets timers of its own. A waiting call keeps the process alive until its
 * timeout, as the referenced timer of an awaited call should.
 */
export function createPendingCalls(
  address: string,
  timers: DeadlineTimers = new DeadlineTimers({ keepAlive: true }),
): PendingCalls {
  return new PendingTable(address, timers);
}
