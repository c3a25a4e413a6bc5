import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { LoadBalance } from "../contracts.js";
import { randomInt, weightOf } from "./weight.js";

/**
 * Dubbo's `random`: weighted random over the candidates' (warmed-up) weights, uniform when all
 * weights are equal or all zero.
 */
export function createRandomLoadBalance(
  random: () => number = Math.random,
  now: () => number = Date.now,
): LoadBalance {
  return {
    select(invokers: readonly Invoker[], _url: Url, inv: Invocation): Invoker {
      const length = invokers.length;
      if (length === 1) return invokers[0]!;
      const at = now();
      const weights = new Array<number>(length);
      let total = 0;
      let sameWeight = true;
      for (let i = 0; i < length; i++) {
        const weight = weightOf(invokers[i]!, inv.method, at);
        weights[i] = weight;
        total += weight;
        if (sameWeight && i > 0 && weight !== weights[0]) sameWeight = false;
      }
      if (total > 0 && !sameWeight) {
        let offset = randomInt(random, total);
        for (let i = 0; i < length; i++) {
          offset -= weights[i]!;
          if (offset < 0) return invokers[i]!;
        }
      }
      return invokers[randomInt(random, length)]!;
    },
  };
}
