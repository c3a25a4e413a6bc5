import type { Filter, Invocation, InvokeFn, Invoker, RpcResult } from "../core/index.js";

/**
 * Java's `Filter.Listener`: what a filter does once the call has settled, synchronously.
 * `onResponse` may replace the result or throw; `onError` may answer a result instead or throw (the
 * same or another error). `startedAt` is `Date.now()` when the call passed the filter. `around`,
 * when given, runs the rest of the call (`proceed`, synchronously) in a scope of its own, such as
 * the provider's RpcContext, and returns what `proceed` returns; the listeners run in that scope.
 */
export interface CallListener {
  readonly around?: ((inv: Invocation, proceed: InvokeFn) => Promise<RpcResult>) | undefined;
  readonly onResponse?: ((result: RpcResult, inv: Invocation, startedAt: number) => RpcResult) | undefined;
  readonly onError?: ((error: unknown, inv: Invocation, startedAt: number) => RpcResult) | undefined;
}

/** Made once per wrapped invoker; undefined when the filter has nothing to do for that invoker. */
type ListenerFactory = (invoker: Invoker) => CallListener | undefined;

const factories = new WeakMap<Filter, ListenerFactory>();

/**
 * Runs the listeners, innermost first, as nested filters would: a listener that throws hands its
 * error to the next one out, one that answers an error hands its result on.
 */
function settle(
  listeners: readonly CallListener[],
  inv: Invocation,
  startedAt: number,
  failed: boolean,
  outcome: unknown,
): RpcResult {
  let isError = failed;
  let value = outcome;
  for (const listener of listeners) {
    const handle = isError ? listener.onError : listener.onResponse;
    if (handle === undefined) continue;
    try {
      value = handle(value as RpcResult, inv, startedAt);
      isError = false;
    } catch (error) {
      value = error;
      isError = true;
    }
  }
  if (isError) throw value;
  return value as RpcResult;
}

/**
 * One step that calls `next` and runs `listeners` (innermost first) in one promise reaction,
 * registered inside the listeners' `around` scopes (outermost first).
 */
function listeningStep(next: InvokeFn, listeners: readonly CallListener[]): InvokeFn {
  let step: InvokeFn = (inv) => {
    const startedAt = Date.now();
    let promise: Promise<RpcResult>;
    try {
      promise = next(inv);
    } catch (error) {
      promise = Promise.reject(error);
    }
    return promise.then(
      (result) => settle(listeners, inv, startedAt, false, result),
      (error: unknown) => settle(listeners, inv, startedAt, true, error),
    );
  };
  for (const { around } of listeners) {
    if (around === undefined) continue;
    const proceed = step;
    step = (inv) => around(inv, proceed);
  }
  return step;
}

/**
 * A filter made of a listener. Alone it is an ordinary filter (one promise step per call);
 * `buildFilterChain` runs the listeners of adjacent listener filters in one step, so a chain of
 * them costs one promise per call instead of one each.
 */
export function listenerFilter(factory: ListenerFactory): Filter {
  const filter: Filter = (next, invoker) => {
    const listener = factory(invoker);
    return listener === undefined ? next : listeningStep(next, [listener]);
  };
  factories.set(filter, factory);
  return filter;
}

/**
 * Wraps `next` in `filters` (the first outermost), each plain filter called once with its next
 * step, and each run of adjacent listener filters made one step.
 */
export function chainSteps(
  next: InvokeFn,
  invoker: Invoker,
  filters: readonly Filter[],
  apply: (filter: Filter, index: number, next: InvokeFn) => InvokeFn,
): InvokeFn {
  let step = next;
  let listeners: CallListener[] = [];
  for (let i = filters.length - 1; i >= 0; i--) {
    const filter = filters[i]!;
    const factory = factories.get(filter);
    if (factory !== undefined) {
      const listener = factory(invoker);
      if (listener !== undefined) listeners.push(listener);
      continue;
    }
    if (listeners.length > 0) step = listeningStep(step, listeners);
    listeners = [];
    step = apply(filter, i, step);
  }
  return listeners.length > 0 ? listeningStep(step, listeners) : step;
}
