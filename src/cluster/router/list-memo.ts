import type { Invoker } from "../../core/index.js";

/** What a router derives from a provider list once, rather than on every call. */
export interface ListMemo<T> {
  /** The derivation of `invokers`, reused while the same frozen list comes back. */
  of(invokers: readonly Invoker[]): T;
  /** Forgets the kept derivation (the router's own state it depends on changed). */
  clear(): void;
}

/**
 * Keeps the derivation of the last frozen list seen: the directory passes the same frozen snapshot
 * call after call, so a router scans its providers once per change, not per call. A list that is
 * not frozen could change under the cache, so it is derived afresh every time.
 */
export function memoPerList<T>(derive: (invokers: readonly Invoker[]) => T): ListMemo<T> {
  let lastInput: readonly Invoker[] | undefined;
  let lastDerived: T | undefined;
  return {
    of(invokers) {
      if (invokers === lastInput) return lastDerived as T;
      const derived = derive(invokers);
      if (Object.isFrozen(invokers)) {
        lastInput = invokers;
        lastDerived = derived;
      }
      return derived;
    },
    clear() {
      lastInput = undefined;
      lastDerived = undefined;
    },
  };
}

/**
 * Java's `filterInvoker`: the same list when everything passes, so unchanged lists are not copied;
 * a new list is frozen, so the routers after this one can keep what they derive from it.
 */
export function keepFrozen(
  invokers: readonly Invoker[],
  predicate: (invoker: Invoker) => boolean,
): readonly Invoker[] {
  return invokers.every(predicate) ? invokers : Object.freeze(invokers.filter(predicate));
}
