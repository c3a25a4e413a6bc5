import {
  Code,
  DEFAULT_ACTIVES,
  DEFAULT_TIMEOUT_MS,
  type Filter,
  type FilterExtension,
  RpcError,
} from "../../core/index.js";

interface Waiter {
  readonly wake: () => void;
}

interface MethodSlots {
  readonly max: number;
  readonly timeoutMs: number;
  active: number;
  readonly waiters: Waiter[];
}

/**
 * Consumer side (Java's ActiveLimitFilter): at most `actives` calls of a method to this provider
 * are in flight (`sayHello.actives` over `actives`). A call beyond waits for a slot up to its
 * timeout (bounded by its deadline), then fails with ResourceExhausted naming the limit.
 * Counts are kept per referred invoker here, so the limit holds with or without a cluster around it.
 */
export const activesFilter: Filter = (next, invoker) => {
  const url = invoker.url;
  const methods = new Map<string, MethodSlots>();

  function slotsOf(method: string): MethodSlots {
    let slots = methods.get(method);
    if (slots === undefined) {
      slots = {
        max: url.methodNumber(method, "actives", DEFAULT_ACTIVES),
        timeoutMs: url.methodNumber(method, "timeout", DEFAULT_TIMEOUT_MS),
        active: 0,
        waiters: [],
      };
      methods.set(method, slots);
    }
    return slots;
  }

  function release(slots: MethodSlots): void {
    slots.active--;
    slots.waiters.shift()?.wake();
  }

  async function acquire(slots: MethodSlots, method: string, deadline: number | undefined): Promise<void> {
    const started = Date.now();
    const until = Math.min(started + slots.timeoutMs, deadline ?? Number.POSITIVE_INFINITY);
    while (slots.active >= slots.max) {
      const left = until - Date.now();
      if (left <= 0) {
        throw new RpcError(
          `${url.serviceKey}.${method} to ${url.address}: waited ${Date.now() - started} ms for one of ` +
            `actives=${slots.max} slots (${slots.active} calls in flight); raise \`actives\` or \`${method}.actives\``,
          Code.ResourceExhausted,
        );
      }
      await new Promise<void>((resolve) => {
        const waiter: Waiter = {
          wake: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          const i = slots.waiters.indexOf(waiter);
          if (i >= 0) slots.waiters.splice(i, 1);
          resolve();
        }, left);
        slots.waiters.push(waiter);
      });
    }
    slots.active++;
  }

  return (inv) => {
    const slots = slotsOf(inv.method);
    if (slots.max <= 0) return next(inv);
    const run = () => {
      let result: ReturnType<typeof next>;
      try {
        result = next(inv);
      } catch (error) {
        release(slots);
        return Promise.reject(error);
      }
      return result.finally(() => release(slots));
    };
    if (slots.active < slots.max) {
      slots.active++;
      return run();
    }
    return acquire(slots, inv.method, inv.deadline).then(run);
  };
};

export const activesFilterExtension: FilterExtension = Object.freeze({
  filter: activesFilter,
  activate: Object.freeze({ side: "consumer", keys: Object.freeze(["actives"]) }),
});
