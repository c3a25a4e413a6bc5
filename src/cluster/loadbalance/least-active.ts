import { type Invocation, type Invoker, RpcStatusTable, type Url } from "../../core/index.js";
import type { LoadBalance } from "../contracts.js";
import { randomInt, weightOf } from "./weight.js";

/**
 * Dubbo's `leastactive`: the provider with the fewest calls in flight for this method (from the
 * consumer-side `RpcStatusTable`), weighted random among ties, uniform when their weights are equal.
 */
export function createLeastActiveLoadBalance(
  status: RpcStatusTable = new RpcStatusTable(),
  random: () => number = Math.random,
): LoadBalance {
  return {
    select(invokers: readonly Invoker[], _url: Url, inv: Invocation): Invoker {
      const length = invokers.length;
      if (length === 1) return invokers[0]!;
      const now = Date.now();
      let leastActive = -1;
      let leastCount = 0;
      const leastIndexes = new Array<number>(length);
      const weights = new Array<number>(length);
      let totalWeight = 0;
      let firstWeight = 0;
      let sameWeight = true;
      for (let i = 0; i < length; i++) {
        const invoker = invokers[i]!;
        const active = status.of(invoker.url, inv.method).active;
        const weight = weightOf(invoker, inv.method, now);
        weights[i] = weight;
        if (leastActive === -1 || active < leastActive) {
          leastActive = active;
          leastCount = 1;
          leastIndexes[0] = i;
          totalWeight = weight;
          firstWeight = weight;
          sameWeight = true;
        } else if (active === leastActive) {
          leastIndexes[leastCount++] = i;
          totalWeight += weight;
          if (sameWeight && weight !== firstWeight) sameWeight = false;
        }
      }
      if (leastCount === 1) return invokers[leastIndexes[0]!]!;
      if (!sameWeight && totalWeight > 0) {
        let offset = randomInt(random, totalWeight);
        for (let i = 0; i < leastCount; i++) {
          const index = leastIndexes[i]!;
          offset -= weights[index]!;
          if (offset < 0) return invokers[index]!;
        }
      }
      return invokers[leastIndexes[randomInt(random, leastCount)]!]!;
    },
  };
}
