import { AsyncLocalStorage } from "node:async_hooks";
import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import { type Attachments, hasAnyAttachment, type Invocation } from "../rpc/invocation.js";
import { NEVER_ABORTED } from "./signals.js";

/**
 * The RPC context of the code running now (Dubbo's `RpcContext`), carried by `AsyncLocalStorage`
 * so it follows `await` and never leaks between concurrent calls.
 *
 * - Provider side (opened by the provider context filter around each call): `attachments` are the
 *   ones the request carried (framework keys removed), `invocation`, `remoteAddress` and
 *   `localAddress` describe the call, `setResponseAttachment` sends attachments back.
 * - Consumer side (opened by `runWithRpcContext`): attachments you set travel with every call made
 *   inside the scope; after a call, `lastCall` holds what the provider sent back.
 *
 * Attachments of a provider context also travel with the downstream calls its code makes (Dubbo
 * 2.7's implicit propagation, e.g. a trace id), and a nested `runWithRpcContext` starts from a copy
 * of the enclosing attachments.
 */
export type RpcSide = "consumer" | "provider";

/** What the most recent call made from a context returned. */
export interface CompletedCall {
  readonly invocation: Invocation;
  /** The provider that served it (`host:port`). */
  readonly remoteAddress: string;
  /** Attachments the provider sent back. */
  readonly attachments: Attachments;
}

/**
 * Attachment keys the framework itself sends (routing, version, timeout); the provider context does
 * not show them as user attachments and does not forward them downstream (Java's ContextFilter).
 */
export const FRAMEWORK_ATTACHMENT_KEYS: ReadonlySet<string> = new Set([
  "path",
  "interface",
  "group",
  "version",
  "dubbo",
  "token",
  "timeout",
  "_TO",
  "async",
  "dubbo.tag",
  "dubbo.force.tag",
]);

const NO_ATTACHMENTS: Record<string, unknown> = Object.freeze({});

/** `record[key] = value`, as an own property even for `__proto__` (never the prototype). */
function putAttachment(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    record[key] = value;
  }
}

export class RpcContext {
  readonly side: RpcSide;
  /** Provider side: the call being served. */
  readonly invocation: Invocation | undefined;
  /** Provider side: the caller's `host:port`, when the transport knows it. */
  readonly remoteAddress: string | undefined;
  /** Provider side: this provider's `host:port`. */
  readonly localAddress: string | undefined;
  /**
   * The attachments, copy on write: a record that is shared (frozen) once `attachments` handed it
   * out or a nested scope started from it, and copied before the next change. A provider context
   * starts from the request's attachments in `#source`, filtered on first use (most calls never look).
   */
  #record: Record<string, unknown> | undefined;
  #shared: boolean;
  #source: Attachments | undefined;
  #response: Map<string, unknown> | undefined;
  #lastCall: CompletedCall | undefined;

  /** @internal Use `runWithRpcContext` (consumer) or the provider context filter to create one. */
  constructor(init: {
    readonly side: RpcSide;
    /** Consumer side: the attachments to start from (a frozen snapshot, shared until a change). */
    readonly attachments?: Attachments | undefined;
    /** Provider side: the request's attachments; the framework's keys are left out, lazily. */
    readonly requestAttachments?: Attachments;
    readonly invocation?: Invocation | undefined;
    readonly remoteAddress?: string | undefined;
    readonly localAddress?: string | undefined;
  }) {
    this.side = init.side;
    this.invocation = init.invocation;
    this.remoteAddress = init.remoteAddress;
    this.localAddress = init.localAddress;
    this.#source = init.requestAttachments;
    this.#record = init.requestAttachments === undefined ? (init.attachments ?? NO_ATTACHMENTS) : undefined;
    this.#shared = true;
  }

  /** The current attachments, read only (a provider's built from the request on first use). */
  #read(): Record<string, unknown> {
    if (this.#record === undefined) {
      const record: Record<string, unknown> = {};
      const source = this.#source;
      for (const key in source) {
        if (!FRAMEWORK_ATTACHMENT_KEYS.has(key)) putAttachment(record, key, source[key]);
      }
      this.#record = record;
      this.#shared = false;
      this.#source = undefined;
    }
    return this.#record;
  }

  /** The attachments, for a change: a private copy when the current record is shared. */
  #write(): Record<string, unknown> {
    const record = this.#read();
    if (!this.#shared) return record;
    const copy: Record<string, unknown> = {};
    for (const key in record) putAttachment(copy, key, record[key]);
    this.#record = copy;
    this.#shared = false;
    return copy;
  }

  /** Provider side: aborts when the caller gives up or the deadline passes. Never aborts on the consumer side. */
  get signal(): AbortSignal {
    return this.invocation?.signal ?? NEVER_ABORTED;
  }

  /** Provider side: ms left before the caller's deadline (never negative), or undefined when there is none. */
  timeLeft(now = Date.now()): number | undefined {
    const deadline = this.invocation?.deadline;
    return deadline === undefined ? undefined : Math.max(0, deadline - now);
  }

  getAttachment(key: string): unknown {
    const record = this.#read();
    return Object.hasOwn(record, key) ? record[key] : undefined;
  }

  /** Sets an attachment sent with every call made from this context; `undefined` removes it. */
  setAttachment(key: string, value: unknown): this {
    if (typeof key !== "string" || key === "") {
      throw new RpcError(
        `an attachment key must be a non-empty string (got ${String(key)})`,
        Code.InvalidArgument,
      );
    }
    if (value === undefined) this.removeAttachment(key);
    else putAttachment(this.#write(), key, value);
    return this;
  }

  removeAttachment(key: string): boolean {
    if (!Object.hasOwn(this.#read(), key)) return false;
    delete this.#write()[key];
    return true;
  }

  hasAttachments(): boolean {
    return hasAnyAttachment(this.#read());
  }

  /** A frozen snapshot of this context's attachments (shared until the next change). */
  get attachments(): Attachments {
    const record = this.#read();
    if (!this.#shared) {
      Object.freeze(record);
      this.#shared = true;
    }
    return record;
  }

  /** Provider side: an attachment sent back to the caller with the response; `undefined` removes it. */
  setResponseAttachment(key: string, value: unknown): this {
    if (this.side !== "provider") {
      throw new RpcError(
        `setResponseAttachment("${key}") works only inside a provider call; a consumer sends attachments with setAttachment`,
        Code.FailedPrecondition,
      );
    }
    this.#response ??= new Map();
    if (value === undefined) this.#response.delete(key);
    else this.#response.set(key, value);
    return this;
  }

  get responseAttachments(): Attachments {
    return this.#response === undefined || this.#response.size === 0
      ? NO_ATTACHMENTS
      : Object.freeze(Object.fromEntries(this.#response));
  }

  /** The most recent call made from this context that completed (success only). */
  get lastCall(): CompletedCall | undefined {
    return this.#lastCall;
  }

  /** An attachment the provider of the most recent completed call sent back. */
  getReceivedAttachment(key: string): unknown {
    return this.#lastCall?.attachments[key];
  }

  /** @internal Called by the consumer context filter when a call made from this context completes. */
  recordCall(call: CompletedCall): void {
    this.#lastCall = call;
  }

  /** @internal Whether the provider's code set any response attachment. */
  hasResponseAttachments(): boolean {
    return this.#response !== undefined && this.#response.size > 0;
  }
}

/**
 * The one module-level object of the context: the AsyncLocalStorage instance. It holds no value
 * itself; each asynchronous flow carries its own `RpcContext`, so applications, tests and concurrent
 * calls in one process never see each other's contexts through it.
 */
const storage = new AsyncLocalStorage<RpcContext>();

/** The context of the code running now, or undefined outside any call or scope. */
export function currentRpcContext(): RpcContext | undefined {
  return storage.getStore();
}

/**
 * The context of the code running now. Throws when there is none: a provider's code always has one;
 * consumer code opens one with `runWithRpcContext`.
 */
export function getRpcContext(): RpcContext {
  const ctx = storage.getStore();
  if (ctx === undefined) {
    throw new RpcError(
      "no RPC context is active here: wrap consumer calls in runWithRpcContext(async (ctx) => { ctx.setAttachment(...); await stub.method(...) })",
      Code.FailedPrecondition,
    );
  }
  return ctx;
}

/**
 * Runs `fn` in a new consumer context. Attachments set on it travel with every call `fn` makes;
 * after a call, `ctx.lastCall` and `ctx.getReceivedAttachment()` show what the provider returned.
 * It starts with a copy of the enclosing context's attachments, and changes never leak outward.
 */
export function runWithRpcContext<R>(fn: (ctx: RpcContext) => R): R {
  const ctx = new RpcContext({ side: "consumer", attachments: storage.getStore()?.attachments });
  return storage.run(ctx, fn, ctx);
}

/** @internal Runs `fn(...args)` with `ctx` as the current context (the provider context filter uses it). */
export function runInRpcContext<A extends unknown[], R>(
  ctx: RpcContext,
  fn: (...args: A) => R,
  ...args: A
): R {
  return storage.run(ctx, fn, ...args);
}

/** @internal The provider context of one call: the request's user attachments and addresses. */
export function createProviderContext(inv: Invocation, localAddress: string | undefined): RpcContext {
  return new RpcContext({
    side: "provider",
    requestAttachments: inv.attachments,
    invocation: inv,
    remoteAddress: inv.remoteAddress,
    localAddress,
  });
}
