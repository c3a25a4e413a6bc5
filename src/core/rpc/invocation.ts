import type { JavaType } from "../java/java-type.js";

/** Attachments travel beside the arguments (Dubbo's implicit parameters), both ways. */
export type Attachments = Readonly<Record<string, unknown>>;

/**
 * One call, as every layer sees it. Immutable: each retry or filter that changes something derives
 * a new value (`{ ...inv, attachments }`), never edits this one.
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
  /** Aborted on user cancel, the overall deadline, or completion. */
  readonly signal: AbortSignal;
  /** Absolute epoch ms by which the whole call (all attempts) must finish; undefined for none. */
  readonly deadline: number | undefined;
  /** One-way calls get no response. */
  readonly oneWay: boolean;
  /**
   * Provider side: the caller's `host:port` as the transport saw it (never sent on the wire; the
   * provider context filter exposes it as `RpcContext.remoteAddress`).
   */
  readonly remoteAddress?: string | undefined;
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
}

const NEVER_ABORTED = new AbortController().signal;

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
  };
}

type InvocationChanges = { -readonly [K in keyof Invocation]?: Invocation[K] };

/**
 * A new invocation with `changes` applied. Prefer it to a spread: a spread reads `signal`, which
 * forces a lazily created signal (the proxy creates one only when read) into existence; here the
 * new invocation reads the original's signal only when its own is read.
 */
export function deriveInvocation(inv: Invocation, changes: InvocationChanges): Invocation {
  if ("signal" in changes) return { ...inv, ...changes };
  return {
    service: inv.service,
    group: inv.group,
    version: inv.version,
    method: inv.method,
    parameterTypes: inv.parameterTypes,
    returnType: inv.returnType,
    args: inv.args,
    attachments: inv.attachments,
    deadline: inv.deadline,
    oneWay: inv.oneWay,
    remoteAddress: inv.remoteAddress,
    ...changes,
    get signal() {
      return inv.signal;
    },
  };
}

/** A new invocation with these attachments added over the existing ones. */
export function withAttachments(inv: Invocation, extra: Attachments): Invocation {
  return deriveInvocation(inv, { attachments: { ...inv.attachments, ...extra } });
}

/** Milliseconds left before the deadline (never negative), or undefined when there is none. */
export function timeLeft(inv: Invocation, now = Date.now()): number | undefined {
  return inv.deadline === undefined ? undefined : Math.max(0, inv.deadline - now);
}
