import type { Filter, Invocation, InvokeFn, Invoker, RpcResult } from "../core/index.js";

/**
 * Java's `Filter.Listener`: what a filter does once the call has settled, synchronously.
 * `onResponse` may replace the result or throw; `onError` may answer a result instead or throw (the
 * same or another error). `startedAt` is `Date.now()` when the call passed the filter, read only for
 * a step with a `timed` listener (0 otherwise: a clock read is ~90 ns a call here). `around`,
 * when given, runs the rest of the call (`proceed`, synchronously) in a scope of its own, such as
 * the provider's RpcContext, and returns what `proceed` returns; the listeners run in that scope.
 * `begin`, when given, runs as the call passes the filter (outermost first, after the `around`s);
 * what it returns is handed to this listener's `onResponse` / `onError` as `begun` (a start time
 * of its own clock, say), so a listener keeps per-call state without a closure per call.
 */
export interface CallListener {
  /** This listener reads `startedAt`. */
  readonly timed?: boolean | undefined;
  readonly around?: ((inv: Invocation, proceed: InvokeFn) => Promise<RpcResult>) | undefined;
  readonly begin?: ((inv: Invocation) => unknown) | undefined;
  readonly onResponse?:
    | ((result: RpcResult, inv: Invocation, startedAt: number, begun: unknown) => RpcResult)
    | undefined;
  readonly onError?:
    | ((error: unknown, inv: Invocation, startedAt: number, begun: unknown) => RpcResult)
    | undefined;
}

/**
 * What the caller of an invoker does once one call to it has settled (the cluster's statistics and
 * retry): `invokeListening` runs it after the invoker's own listeners, in their promise step when the
 * invoker's filter chain starts with one. `onError` may answer with a promise (a retry).
 */
export interface SettledListener {
  onResponse(result: RpcResult): RpcResult;
  onError(error: unknown): RpcResult | Promise<RpcResult>;
}

/** Made once per wrapped invoker; undefined when the filter has nothing to do for that invoker. */
type ListenerFactory = (invoker: Invoker) => CallListener | undefined;

const factories = new WeakMap<Filter, ListenerFactory>();

/**
 * Runs the listeners from `innermost` outwards, as nested filters would: a listener that throws
 * hands its error to the next one out, one that answers an error hands its result on; then the
 * caller's `settled`, when `invokeListening` handed one, on what they made of the outcome.
 */
function settle(
  listeners: readonly CallListener[],
  innermost: number,
  inv: Invocation,
  startedAt: number,
  begun: readonly unknown[] | undefined,
  failed: boolean,
  outcome: unknown,
  settled: SettledListener | undefined,
): RpcResult | Promise<RpcResult> {
  let isError = failed;
  let value = outcome;
  for (let i = innermost; i < listeners.length; i++) {
    const listener = listeners[i]!;
    const handle = isError ? listener.onError : listener.onResponse;
    if (handle === undefined) continue;
    try {
      value = handle(value as RpcResult, inv, startedAt, begun?.[i]);
      isError = false;
    } catch (error) {
      value = error;
      isError = true;
    }
  }
  if (settled !== undefined) return isError ? settled.onError(value) : settled.onResponse(value as RpcResult);
  if (isError) throw value;
  return value as RpcResult;
}

/**
 * A `begin` that threw: the call fails with `cause`, and the listener at `index` and those outside
 * it (which had begun) settle with it, the outer ones with their tokens, as Java's `FilterNode`
 * hands a filter's synchronous throw to that filter's listener and then to the ones around it;
 * the listeners inside it never began and do not settle.
 */
class BeginFailure {
  constructor(
    readonly cause: unknown,
    readonly index: number,
    readonly begun: unknown[] | undefined,
  ) {}
}

/** The listeners' `begin`s, outermost first; an array only when one of them returned something. */
function beginAll(listeners: readonly CallListener[], inv: Invocation): unknown[] | undefined {
  let begun: unknown[] | undefined;
  for (let i = listeners.length - 1; i >= 0; i--) {
    const begin = listeners[i]!.begin;
    if (begin === undefined) continue;
    let token: unknown;
    try {
      token = begin(inv);
    } catch (error) {
      throw new BeginFailure(error, i, begun);
    }
    if (token === undefined) continue;
    begun ??= new Array<unknown>(listeners.length);
    begun[i] = token;
  }
  return begun;
}

/** The step a chain starts with, by its invoke function, when that step is a listening one. */
const listeningStarts = new WeakMap<InvokeFn, readonly CallListener[]>();

/**
 * The hand-off from `invokeListening` to the innermost function of the step it calls: set just
 * before the call and taken (for those listeners only) before anything else runs, synchronously,
 * so no other call can see it.
 */
let handedTo: readonly CallListener[] | undefined;
let handedListener: SettledListener | undefined;

function takeHanded(listeners: readonly CallListener[]): SettledListener | undefined {
  if (handedTo !== listeners) return undefined;
  const settled = handedListener;
  handedTo = undefined;
  handedListener = undefined;
  return settled;
}

/**
 * One step that calls `next` and runs `listeners` (innermost first) in one promise reaction,
 * registered inside the listeners' `around` scopes (outermost first).
 */
function listeningStep(next: InvokeFn, listeners: readonly CallListener[]): InvokeFn {
  const timed = listeners.some((listener) => listener.timed === true);
  let step: InvokeFn = (inv) => {
    const settled = takeHanded(listeners);
    const startedAt = timed ? Date.now() : 0;
    let promise: Promise<RpcResult>;
    let begun: unknown[] | undefined;
    let innermost = 0;
    try {
      begun = beginAll(listeners, inv);
      promise = next(inv);
    } catch (error) {
      if (error instanceof BeginFailure) {
        begun = error.begun;
        innermost = error.index;
        promise = Promise.reject(error.cause);
      } else {
        promise = Promise.reject(error);
      }
    }
    return promise.then(
      (result) => settle(listeners, innermost, inv, startedAt, begun, false, result, settled),
      (error: unknown) => settle(listeners, innermost, inv, startedAt, begun, true, error, settled),
    );
  };
  for (const { around } of listeners) {
    if (around === undefined) continue;
    const proceed = step;
    step = (inv) => around(inv, proceed);
  }
  listeningStarts.set(step, listeners);
  return step;
}

/**
 * `invoker.invoke(inv)` with `settled` run once the call has settled (an invoker that throws is
 * seen as rejecting). When the invoker's filter chain starts with a listening step, `settled` runs
 * in that step's promise reaction, after its listeners: no promise of its own. Otherwise (an
 * invoker without a chain, or one whose chain starts with a plain filter, which may answer without
 * calling on) it gets its own step, as a `then` would.
 */
export function invokeListening(
  invoker: Invoker,
  inv: Invocation,
  settled: SettledListener,
): Promise<RpcResult> {
  const invoke = invoker.invoke;
  const starts = listeningStarts.get(invoke);
  if (starts === undefined) return ownStep(invokeSafely(invoker, inv), inv, settled);
  // A hand-off already under way (a call made from an `around` before its step took its own) is
  // put back afterwards, so nesting cannot take or lose another call's listener.
  const outerTo = handedTo;
  const outerListener = handedListener;
  handedTo = starts;
  handedListener = settled;
  const promise = invokeSafely(invoker, inv);
  const taken = handedListener !== settled;
  handedTo = outerTo;
  handedListener = outerListener;
  // Not taken when an `around` failed before reaching the step.
  return taken ? promise : ownStep(promise, inv, settled);
}

const NO_LISTENERS: readonly CallListener[] = Object.freeze([]);

/** `settled` in a promise step of its own. */
function ownStep(promise: Promise<RpcResult>, inv: Invocation, settled: SettledListener): Promise<RpcResult> {
  return promise.then(
    (result) => settle(NO_LISTENERS, 0, inv, 0, undefined, false, result, settled),
    (error: unknown) => settle(NO_LISTENERS, 0, inv, 0, undefined, true, error, settled),
  );
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

/** `invoker.invoke(inv)`, with an invoker that throws instead of rejecting seen as rejecting. */
export function invokeSafely(invoker: Invoker, inv: Invocation): Promise<RpcResult> {
  try {
    return invoker.invoke(inv);
  } catch (error) {
    return Promise.reject(error);
  }
}
