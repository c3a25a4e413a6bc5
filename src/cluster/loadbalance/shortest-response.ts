import { type Invocation, type Invoker, RpcStatusTable, type Url } from "../../core/index.js";
import type { LoadBalance } from "../contracts.js";
import { randomInt, weightOf } from "./weight.js";

/**
 * Dubbo 2.7.7's `shortestresponse`: the provider whose estimated response time (mean successful
 * call time × calls in flight, from the consumer-side `RpcStatusTable`) is lowest; weighted random
 * among ties, uniform when their weights are equal.
 */
export function createShortestResponseLoadBalance(
  status: RpcStatusTable = new RpcStatusTable(),
  random: () => number = Math.random,
): LoadBalance {
  return {
    select(invokers: readonly Invoker[], _url: Url, inv: Invocation): Invoker {
      const length = invokers.length;
      if (length === 1) return invokers[0]!;
      const now = Date.now();
      let shortest = Number.POSITIVE_INFINITY;
      let shortestCount = 0;
      const shortestIndexes = new Array<number>(length);
      const weights = new Array<number>(length);
      let totalWeight = 0;
      let firstWeight = 0;
      let sameWeight = true;
      for (let i = 0; i < length; i++) {
        const invoker = invokers[i]!;
        const rpc = status.of(invoker.url, inv.method);
        // Java multiplies a long average (integer division) by the active count.
        const estimate = Math.trunc(rpc.succeededAverageElapsedMs) * rpc.active;
        const weight = weightOf(invoker, inv.method, now);
        weights[i] = weight;
        if (estimate < shortest) {
          shortest = estimate;
          shortestCount = 1;
          shortestIndexes[0] = i;
          totalWeight = weight;
          firstWeight = weight;
          sameWeight = true;
        } else if (estimate === shortest) {
          shortestIndexes[shortestCount++] = i;
          totalWeight += weight;
          if (sameWeight && weight !== firstWeight) sameWeight = false;
        }
      }
      if (shortestCount === 1) return invokers[shortestIndexes[0]!]!;
      if (!sameWeight && totalWeight > 0) {
        let offset = randomInt(random, totalWeight);
        for (let i = 0; i < shortestCount; i++) {
          const index = shortestIndexes[i]!;
          offset -= weights[index]!;
          if (offset < 0) return invokers[index]!;
        }
      }
      return invokers[shortestIndexes[randomInt(random, shortestCount)]!]!;
    },
  };
}
