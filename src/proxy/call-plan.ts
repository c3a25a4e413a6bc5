import {
  type Attachments,
  CallControl,
  Code,
  DEFAULT_TIMEOUT_MS,
  type Invoker,
  type JavaType,
  LazySignalInvocation,
  RpcError,
  type RpcResult,
  type Url,
} from "../core/index.js";

/** Everything about one method that does not change between calls, resolved at stub creation. */
export interface CallPlan {
  readonly service: string;
  readonly group: string | undefined;
  readonly version: string | undefined;
  readonly method: string;
  readonly parameterTypes: readonly JavaType[];
  readonly returnType: JavaType | undefined;
  readonly attachments: Attachments;
  /** Undefined or non-positive: no deadline. */
  readonly timeoutMs: number | undefined;
  readonly oneWay: boolean;
  readonly onTimeout: () => RpcError;
}

const NO_ATTACHMENTS: Attachments = Object.freeze({});

function timeoutError(service: string, method: string, timeoutMs: number, address: string): () => RpcError {
  return () =>
    new RpcError(
      `${service}.${method} got no response within ${timeoutMs} ms (via ${address || "local"}); ` +
        `raise "timeout" or "${method}.timeout" on the reference, or make the provider faster`,
      Code.DeadlineExceeded,
    );
}

export interface PlanInit {
  readonly method: string;
  readonly parameterTypes: readonly JavaType[];
  readonly returnType: JavaType | undefined;
  readonly attachments?: Attachments;
  /** The method whose settings apply (differs for `$invoke`, which uses the real method's). */
  readonly settingsMethod?: string;
}

/** Resolves one method's call settings from the reference URL (`sayHello.timeout` over `timeout`). */
export function createCallPlan(url: Url, service: string, init: PlanInit): CallPlan {
  const settingsMethod = init.settingsMethod ?? init.method;
  const timeoutMs = url.methodNumber(settingsMethod, "timeout", DEFAULT_TIMEOUT_MS);
  const version = url.get("version");
  return Object.freeze({
    service,
    group: url.get("group") || undefined,
    version: version || undefined,
    method: init.method,
    parameterTypes: init.parameterTypes,
    returnType: init.returnType,
    attachments: init.attachments ?? NO_ATTACHMENTS,
    timeoutMs,
    oneWay: !url.methodBoolean(settingsMethod, "return", true),
    onTimeout: timeoutError(service, settingsMethod, timeoutMs, url.address),
  });
}

/** The invocation of one stub call: its signal is the call control's, made when first read. */
class PlannedInvocation extends LazySignalInvocation {
  readonly #control: CallControl;

  constructor(plan: CallPlan, args: readonly unknown[], control: CallControl) {
    super({
      service: plan.service,
      group: plan.group,
      version: plan.version,
      method: plan.method,
      parameterTypes: plan.parameterTypes,
      returnType: plan.returnType,
      args,
      attachments: plan.attachments,
      deadline: control.deadline,
      oneWay: plan.oneWay,
      remoteAddress: undefined,
    });
    this.#control = control;
  }

  protected currentSignal(): AbortSignal {
    return this.#control.signal;
  }
}

function returnedValue(result: RpcResult): unknown {
  return result.value;
}

/**
 * Makes one call: a fresh invocation with the plan's types, a deadline, and a signal created only
 * if something reads it (it aborts on the deadline and on completion); the call races its deadline,
 * so no invoker can hold the caller past the timeout. Resolves with the returned value.
 */
export function callWithPlan(invoker: Invoker, plan: CallPlan, args: readonly unknown[]): Promise<unknown> {
  const control = new CallControl(plan.timeoutMs, plan.onTimeout);
  let invoked: Promise<RpcResult>;
  try {
    invoked = invoker.invoke(new PlannedInvocation(plan, args, control));
  } catch (error) {
    control.done();
    return Promise.reject(error);
  }
  return control.settle(invoked, returnedValue);
}
