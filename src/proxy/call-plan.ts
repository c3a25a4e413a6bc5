import {
  type Attachments,
  CallControl,
  Code,
  DEFAULT_TIMEOUT_MS,
  type Invocation,
  type Invoker,
  type JavaType,
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

/**
 * The invocation of one stub call. `signal` is an own enumerable accessor (so `{ ...inv }` copies a
 * working signal) defined from one shared descriptor: an object literal with a getter costs several
 * times more per call.
 */
class PlannedInvocation implements Invocation {
  readonly service: string;
  readonly group: string | undefined;
  readonly version: string | undefined;
  readonly method: string;
  readonly parameterTypes: readonly JavaType[];
  readonly returnType: JavaType | undefined;
  readonly args: readonly unknown[];
  readonly attachments: Attachments;
  declare readonly signal: AbortSignal;
  readonly deadline: number | undefined;
  readonly oneWay: boolean;
  readonly #control: CallControl;

  static readonly #signalProperty: PropertyDescriptor = Object.freeze({
    get(this: PlannedInvocation): AbortSignal {
      return this.#control.signal;
    },
    enumerable: true,
    configurable: false,
  });

  constructor(plan: CallPlan, args: readonly unknown[], control: CallControl) {
    this.service = plan.service;
    this.group = plan.group;
    this.version = plan.version;
    this.method = plan.method;
    this.parameterTypes = plan.parameterTypes;
    this.returnType = plan.returnType;
    this.args = args;
    this.attachments = plan.attachments;
    Object.defineProperty(this, "signal", PlannedInvocation.#signalProperty);
    this.deadline = control.deadline;
    this.oneWay = plan.oneWay;
    this.#control = control;
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
