import { type Invocation, type Invoker, RpcStatusTable, type Url } from "../../core/index.js";
import type { LoadBalance } from "../contracts.js";
import { selectLowestScore } from "./lowest-score.js";

/**
 * Dubbo 2.7.7's `shortestresponse`: the provider whose estimated response time (mean successful
 * call time × calls in flight, from the consumer-side `RpcStatusTable`) is lowest; weighted random
 * among ties, uniform when their weights are equal.
 */
export function createShortestResponseLoadBalance(
  status: RpcStatusTable = new RpcStatusTable(),
  random: () => number = Math.random,
  now: () => number = Date.now,
): LoadBalance {
  return {
    select(invokers: readonly Invoker[], _url: Url, inv: Invocation): Invoker {
      return selectLowestScore(
        invokers,
        inv,
        (invoker) => {
          const rpc = status.of(invoker.url, inv.method);
          // Java multiplies a long average (integer division) by the active count.
          return Math.trunc(rpc.succeededAverageElapsedMs) * rpc.active;
        },
        random,
        now,
      );
    },
  };
}
