import { type Invocation, type Invoker, RpcStatusTable, type Url } from "../../core/index.js";
import type { LoadBalance } from "../contracts.js";
import { selectLowestScore } from "./lowest-score.js";

/**
 * Dubbo's `leastactive`: the provider with the fewest calls in flight for this method (from the
 * consumer-side `RpcStatusTable`), weighted random among ties, uniform when their weights are equal.
 */
export function createLeastActiveLoadBalance(
  status: RpcStatusTable = new RpcStatusTable(),
  random: () => number = Math.random,
  now: () => number = Date.now,
): LoadBalance {
  return {
    select(invokers: readonly Invoker[], _url: Url, inv: Invocation): Invoker {
      return selectLowestScore(
        invokers,
        inv,
        (invoker) => status.of(invoker.url, inv.method).active,
        random,
        now,
      );
    },
  };
}
