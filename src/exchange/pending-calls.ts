import { Code, DeadlineTimers, RpcError } from "../core/index.js";
import type { CallLabels, Response } from "./message.js";
import { codeFromStatus, statusName } from "./status.js";

/** The calls of one client waiting for their responses, each with its own timeout (on shared timers). */
export interface PendingCalls {
  readonly size: number;
  /** Registers a sent request; the promise settles on its response, its timeout or a disconnect. */
  add(id: bigint, call: CallLabels, timeoutMs: number): Promise<Response>;
  /** Settles the call `id` with an OK response; false when no such call waits (e.g. it timed out). */
  resolve(id: bigint, response: Response): boolean;
  /** Fails the call `id` with the code of a non-OK status and the provider's message. */
  fail(id: bigint, status: number, message: string): void;
  failWith(id: bigint, message: string, code: Code): void;
  /** Fails every waiting call at once with `Unavailable` (the link went down). */
  failAll(cause: Error | undefined): void;
}

interface Pending {
  readonly id: bigint;
  readonly call: CallLabels;
  readonly startedAt: number;
  readonly timeoutMs: number;
  readonly resolve: (response: Response) => void;
  readonly reject: (error: RpcError) => void;
  /** Whether the entry waits on a timer (a timeout of 0 or less expires at once, on the next tick). */
  readonly timed: boolean;
}

export function createPendingCalls(address: string): PendingCalls {
  const calls = new Map<bigint, Pending>();

  // One function for every timeout (the entry is its argument): no closure or timer per call.
  function onTimeout(entry: Pending): void {
    if (calls.get(entry.id) !== entry) return;
    calls.delete(entry.id);
    const elapsed = Date.now() - entry.startedAt;
    entry.reject(
      new RpcError(
        `${entry.call.service}.${entry.call.method} to ${address} timed out after ${elapsed} ms ` +
          `(timeout ${entry.timeoutMs} ms; set \`timeout\` on the method or reference to wait longer)`,
        Code.DeadlineExceeded,
      ),
    );
  }

  const timers = new DeadlineTimers<Pending>(onTimeout, { keepAlive: false });

  function take(id: bigint): Pending | undefined {
    const entry = calls.get(id);
    if (entry === undefined) return undefined;
    calls.delete(id);
    if (entry.timed) timers.delete(entry, entry.timeoutMs);
    return entry;
  }

  return {
    get size() {
      return calls.size;
    },
    add(id, call, timeoutMs) {
      return new Promise<Response>((resolve, reject) => {
        const timed = timeoutMs > 0;
        const entry: Pending = { id, call, startedAt: Date.now(), timeoutMs, resolve, reject, timed };
        calls.set(id, entry);
        if (timed) timers.add(entry, timeoutMs);
        else setImmediate(onTimeout, entry).unref();
      });
    },
    resolve(id, response) {
      const entry = take(id);
      if (entry === undefined) return false;
      entry.resolve(response);
      return true;
    },
    fail(id, status, message) {
      const entry = take(id);
      if (entry === undefined) return;
      entry.reject(
        new RpcError(
          `${entry.call.service}.${entry.call.method} at ${address} failed with ${statusName(status)}: ${message}`,
          codeFromStatus(status),
          { attachments: { dubboStatus: status } },
        ),
      );
    },
    failWith(id, message, code) {
      const entry = take(id);
      if (entry === undefined) return;
      entry.reject(new RpcError(`${entry.call.service}.${entry.call.method}: ${message}`, code));
    },
    failAll(cause) {
      if (calls.size === 0) return;
      const all = [...calls.values()];
      calls.clear();
      const now = Date.now();
      for (const entry of all) {
        if (entry.timed) timers.delete(entry, entry.timeoutMs);
        entry.reject(
          new RpcError(
            `the connection to ${address} closed while ${entry.call.service}.${entry.call.method} ` +
              `waited ${now - entry.startedAt} ms for its response`,
            Code.Unavailable,
            { cause },
          ),
        );
      }
    },
  };
}
