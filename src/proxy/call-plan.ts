import {
  type Attachments,
  canceledError,
  currentRpcContext,
  hasAnyAttachment,
  type Invocation,
  type Invoker,
  type JavaType,
  NEVER_ABORTED,
  type RpcResult,
  raceSignal,
  type Url,
} from "../core/index.js";
import type { ResolvedCallOptions } from "./call-options.js";

/** Everything about one method that does not change between calls, resolved at stub creation. */
export interface CallPlan {
  readonly service: string;
  readonly group: string | undefined;
  readonly version: string | undefined;
  readonly method: string;
  readonly parameterTypes: readonly JavaType[];
  readonly returnType: JavaType | undefined;
  readonly attachments: Attachments;
  readonly oneWay: boolean;
}

const NO_ATTACHMENTS: Attachments = Object.freeze({});

export interface PlanInit {
  readonly method: string;
  readonly parameterTypes: readonly JavaType[];
  readonly returnType: JavaType | undefined;
  readonly attachments?: Attachments;
  /** The method whose settings apply (differs for `$invoke`, which uses the real method's). */
  readonly settingsMethod?: string;
}

/**
 * Resolves one method's call settings from the reference URL (`sayHello.return` over `return`).
 * Timeouts are not among them: each attempt takes its own from its provider's URL.
 */
export function createCallPlan(url: Url, service: string, init: PlanInit): CallPlan {
  const settingsMethod = init.settingsMethod ?? init.method;
  const version = url.get("version");
  return Object.freeze({
    service,
    group: url.get("group") || undefined,
    version: version || undefined,
    method: init.method,
    parameterTypes: init.parameterTypes,
    returnType: init.returnType,
    attachments: init.attachments ?? NO_ATTACHMENTS,
    oneWay: !url.methodBoolean(settingsMethod, "return", true),
  });
}

function returnedValue(result: RpcResult): unknown {
  return result.value;
}

function canceledCall(plan: CallPlan, reason: unknown): unknown {
  return canceledError(`${plan.service}.${plan.method}`, reason);
}

/**
 * The call's attachments: the current RpcContext's, the plan's over them, the options' over those.
 * The context's are bound here, in the invocation being built anyway, rather than by the cluster
 * (`bindContextAttachments`), which then finds nothing to add and copies no invocation (120 B per
 * call with a context attachment set). With nothing but the context's, its frozen snapshot serves.
 */
function callAttachments(plan: CallPlan, extra: Attachments | undefined): Attachments {
  const ctx = currentRpcContext();
  if (ctx === undefined || !ctx.hasAttachments()) {
    return extra === undefined ? plan.attachments : { ...plan.attachments, ...extra };
  }
  if (extra === undefined && !hasAnyAttachment(plan.attachments)) return ctx.attachments;
  return { ...ctx.attachments, ...plan.attachments, ...extra };
}

/**
 * Makes one call: a fresh invocation with the plan's types and attachments (and the options'),
 * and no timer: `timeout` bounds each attempt below the cluster, where a timed-out attempt can
 * still be retried, mocked or ignored. With a signal, the call rejects as soon as it aborts,
 * whatever the layers below are doing (they let go through the same signal). Resolves with the
 * returned value.
 */
export function callWithPlan(
  invoker: Invoker,
  plan: CallPlan,
  args: readonly unknown[],
  options: ResolvedCallOptions | undefined,
): Promise<unknown> {
  const signal = options?.signal;
  const extra = options?.attachments;
  if (signal?.aborted === true) return Promise.reject(canceledCall(plan, signal.reason));
  // The invocation is built as one literal (the shape `createInvocation` gives), not through an
  // init object and a copy: two objects fewer per call.
  const inv: Invocation = {
    service: plan.service,
    group: plan.group,
    version: plan.version,
    method: plan.method,
    parameterTypes: plan.parameterTypes,
    returnType: plan.returnType,
    args,
    attachments: callAttachments(plan, extra),
    signal: signal ?? NEVER_ABORTED,
    deadline: undefined,
    oneWay: plan.oneWay,
    remoteAddress: undefined,
  };
  let invoked: Promise<RpcResult>;
  try {
    invoked = invoker.invoke(inv);
  } catch (error) {
    return Promise.reject(error);
  }
  if (signal === undefined) return invoked.then(returnedValue);
  return raceSignal(invoked, signal, (reason) => canceledCall(plan, reason)).then(returnedValue);
}
