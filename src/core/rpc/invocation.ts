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
  };
}

/** A new invocation with these attachments added over the existing ones. */
export function withAttachments(inv: Invocation, extra: Attachments): Invocation {
  return { ...inv, attachments: { ...inv.attachments, ...extra } };
}

/** Milliseconds left before the deadline (never negative), or undefined when there is none. */
export function timeLeft(inv: Invocation, now = Date.now()): number | undefined {
  return inv.deadline === undefined ? undefined : Math.max(0, inv.deadline - now);
}
