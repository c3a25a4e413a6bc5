import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { LoadBalance } from "../contracts.js";
import { weightOf } from "./weight.js";

/** State of a provider not seen for this long is dropped (Java's RECYCLE_PERIOD). */
const RECYCLE_PERIOD_MS = 60_000;

interface WeightedState {
  weight: number;
  current: number;
  lastUpdate: number;
}

/**
 * Dubbo 2.7's smooth weighted round robin (nginx's algorithm): each pick adds every provider's
 * weight to its running `current`, takes the largest (first on ties) and subtracts the total
 * from it. State is kept per service method and provider identity, reset when a weight changes,
 * and recycled for providers absent for a minute.
 */
export function createRoundRobinLoadBalance(now: () => number = Date.now): LoadBalance {
  const byMethod = new Map<string, Map<string, WeightedState>>();
  return {
    select(invokers: readonly Invoker[], _url: Url, inv: Invocation): Invoker {
      if (invokers.length === 1) return invokers[0]!;
      const key = `${invokers[0]!.url.serviceKey}.${inv.method}`;
      let states = byMethod.get(key);
      if (states === undefined) {
        states = new Map();
        byMethod.set(key, states);
      }
      const time = now();
      let total = 0;
      let best: Invoker | undefined;
      let bestState: WeightedState | undefined;
      for (const invoker of invokers) {
        const id = identityOf(invoker.url);
        const weight = weightOf(invoker, inv.method, time);
        let state = states.get(id);
        if (state === undefined) {
          state = { weight, current: 0, lastUpdate: time };
          states.set(id, state);
        } else if (state.weight !== weight) {
          state.weight = weight;
          state.current = 0;
        }
        state.current += weight;
        state.lastUpdate = time;
        if (bestState === undefined || state.current > bestState.current) {
          best = invoker;
          bestState = state;
        }
        total += weight;
      }
      if (invokers.length !== states.size) {
        for (const [id, state] of states) if (time - state.lastUpdate > RECYCLE_PERIOD_MS) states.delete(id);
      }
      if (best === undefined || bestState === undefined) return invokers[0]!;
      bestState.current -= total;
      return best;
    },
  };
}

function identityOf(url: Url): string {
  return `${url.protocol}://${url.address}/${url.path}`;
}
