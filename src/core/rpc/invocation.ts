import { NEVER_ABORTED } from "../context/signals.js";
import type { JavaType } from "../java/java-type.js";
import type { IdlMethod } from "./idl-method.js";

/** Attachments travel beside the arguments (Dubbo's implicit parameters), both ways. */
export type Attachments = Readonly<Record<string, unknown>>;

/**
 * One call, as every layer sees it. Immutable: each retry or filter that changes something derives
 * a new value with {@link deriveInvocation} (`deriveInvocation(inv, { attachments })`), never edits
 * this one. Not a spread: the invocations the framework makes (a provider's, a derived one) keep
 * their lazy `signal` on their class's prototype, which `{ ...inv }` does not copy.
 */
export interface Invocation {
  /** The service interface (the request's `path`). */
  readonly service: string;
  readonly group: string | undefined;
  readonly version: string | undefined;
  readonly method: string;
  /** Java types of the parameters, from the service contract or the request's descriptor. */
  readonly parameterTypes: readonly JavaType[];
  /** Java return type when the contract declares it. */
  readonly returnType: JavaType | undefined;
  readonly args: readonly unknown[];
  readonly attachments: Attachments;
  /**
   * Consumer side: the caller's signal (per-call options), aborting which ends the call and frees
   * its pending request; `NEVER_ABORTED` when the caller gave none. Provider side: aborted when the
   * caller's `timeout` passes or the call completes.
   */
  readonly signal: AbortSignal;
  /**
   * Absolute epoch ms by which the whole call must finish, when something set one (a forking set's
   * `timeout`, a failback retry; provider side, the caller's `timeout`); undefined by default, since
   * `timeout` bounds each attempt, not the call.
   */
  readonly deadline: number | undefined;
  /** One-way calls get no response. */
  readonly oneWay: boolean;
  /**
   * Provider side: the caller's `host:port` as the transport saw it (never sent on the wire; the
   * provider context filter exposes it as `RpcContext.remoteAddress`).
   */
  readonly remoteAddress?: string | undefined;
  /**
   * An IDL (protobuf) call: the method's kind and message codec. `args` is then the one request
   * message, or an async iterable of them for a client or bidirectional stream.
   */
  readonly idl?: IdlMethod | undefined;
}

export interface InvocationInit {
  readonly service: string;
  readonly method: string;
  readonly args?: readonly unknown[];
  readonly parameterTypes?: readonly JavaType[];
  readonly returnType?: JavaType | undefined;
  readonly group?: string | undefined;
  readonly version?: string | undefined;
  readonly attachments?: Attachments;
  readonly signal?: AbortSignal;
  readonly deadline?: number | undefined;
  readonly oneWay?: boolean;
  readonly remoteAddress?: string | undefined;
  readonly idl?: IdlMethod | undefined;
}

export function createInvocation(init: InvocationInit): Invocation {
  return {
    service: init.service,
    group: init.group,
    version: init.version,
    method: init.method,
    parameterTypes: init.parameterTypes ?? [],
    returnType: init.returnType,
    args: init.args ?? [],
    attachments: init.attachments ?? {},
    signal: init.signal ?? NEVER_ABORTED,
    deadline: init.deadline,
    oneWay: init.oneWay ?? false,
    remoteAddress: init.remoteAddress,
    idl: init.idl,
  };
}

type InvocationChanges = { -readonly [K in keyof Invocation]?: Invocation[K] };

/**
 * A new invocation with `changes` applied, the one way to copy an invocation. A plain one (the
 * stub's literal, whose signal is a field) is spread, which keeps its shape; one of the framework's
 * classes is wrapped instead: the copy reads the original's signal only when its own is read, so a
 * lazily made signal (the provider's) is neither lost nor forced into existence by the copy.
 */
export function deriveInvocation(inv: Invocation, changes: InvocationChanges): Invocation {
  if (!(inv instanceof LazySignalInvocation)) return { ...inv, ...changes };
  return new DerivedInvocation(inv, changes);
}

/**
 * The invocation classes' common shape: plain fields plus a `signal` that each kind makes in its
 * own way (lazily, since creating an `AbortSignal` costs more than a whole in-process call). The
 * signal is a getter on the prototype: an own accessor per object (`Object.defineProperty` in the
 * constructor, as before) took V8's slow path, ≈ 0.6 µs per invocation; copies go through
 * {@link deriveInvocation}, which a spread would not be (it copies own properties only).
 */
export abstract class LazySignalInvocation implements Invocation {
  readonly service: string;
  readonly group: string | undefined;
  readonly version: string | undefined;
  readonly method: string;
  readonly parameterTypes: readonly JavaType[];
  readonly returnType: JavaType | undefined;
  readonly args: readonly unknown[];
  readonly attachments: Attachments;
  readonly deadline: number | undefined;
  readonly oneWay: boolean;
  readonly remoteAddress: string | undefined;
  readonly idl: IdlMethod | undefined;

  constructor(init: Omit<Invocation, "signal">) {
    this.service = init.service;
    this.group = init.group;
    this.version = init.version;
    this.method = init.method;
    this.parameterTypes = init.parameterTypes;
    this.returnType = init.returnType;
    this.args = init.args;
    this.attachments = init.attachments;
    this.deadline = init.deadline;
    this.oneWay = init.oneWay;
    this.remoteAddress = init.remoteAddress;
    this.idl = init.idl;
  }

  get signal(): AbortSignal {
    return this.currentSignal();
  }

  /** The call's signal, made when first asked for. */
  protected abstract currentSignal(): AbortSignal;
}

/**
 * An invocation derived from another: its own signal when the changes give one, else it reads the
 * original's only when its own is read.
 */
class DerivedInvocation extends LazySignalInvocation {
  readonly #origin: Invocation;
  readonly #signal: AbortSignal | undefined;

  constructor(origin: Invocation, changes: InvocationChanges) {
    super({
      service: changes.service ?? origin.service,
      group: "group" in changes ? changes.group : origin.group,
      version: "version" in changes ? changes.version : origin.version,
      method: changes.method ?? origin.method,
      parameterTypes: changes.parameterTypes ?? origin.parameterTypes,
      returnType: "returnType" in changes ? changes.returnType : origin.returnType,
      args: changes.args ?? origin.args,
      attachments: changes.attachments ?? origin.attachments,
      deadline: "deadline" in changes ? changes.deadline : origin.deadline,
      oneWay: changes.oneWay ?? origin.oneWay,
      remoteAddress: "remoteAddress" in changes ? changes.remoteAddress : origin.remoteAddress,
      idl: origin.idl,
    });
    this.#origin = origin;
    this.#signal = changes.signal;
  }

  protected currentSignal(): AbortSignal {
    return this.#signal ?? this.#origin.signal;
  }
}

/** Whether `attachments` holds any key (without building a key list, as `Object.keys` would). */
export function hasAnyAttachment(attachments: Attachments): boolean {
  for (const _ in attachments) return true;
  return false;
}

/** A new invocation with these attachments added over the existing ones. */
export function withAttachments(inv: Invocation, extra: Attachments): Invocation {
  return deriveInvocation(inv, { attachments: { ...inv.attachments, ...extra } });
}

/** Milliseconds left before the deadline (never negative), or undefined when there is none. */
export function timeLeft(inv: Invocation, now = Date.now()): number | undefined {
  return inv.deadline === undefined ? undefined : Math.max(0, inv.deadline - now);
}
