import type { Invocation, Invoker } from "../../core/index.js";
import { randomInt, weightOf } from "./weight.js";

/**
 * The pick shared by `leastactive` and `shortestresponse`, as Java writes both: the provider with
 * the lowest score; among ties, weighted random by (warmed-up) weight, uniform when the weights
 * are equal.
 */
export function selectLowestScore(
  invokers: readonly Invoker[],
  inv: Invocation,
  score: (invoker: Invoker) => number,
  random: () => number,
  now: () => number,
): Invoker {
  const length = invokers.length;
  if (length === 1) return invokers[0]!;
  const at = now();
  let lowest = Number.POSITIVE_INFINITY;
  let tieCount = 0;
  const tieIndexes = new Array<number>(length);
  const weights = new Array<number>(length);
  let totalWeight = 0;
  let firstWeight = 0;
  let sameWeight = true;
  for (let i = 0; i < length; i++) {
    const invoker = invokers[i]!;
    const value = score(invoker);
    const weight = weightOf(invoker, inv.method, at);
    weights[i] = weight;
    if (value < lowest) {
      lowest = value;
      tieCount = 1;
      tieIndexes[0] = i;
      totalWeight = weight;
      firstWeight = weight;
      sameWeight = true;
    } else if (value === lowest) {
      tieIndexes[tieCount++] = i;
      totalWeight += weight;
      if (sameWeight && weight !== firstWeight) sameWeight = false;
    }
  }
  if (tieCount === 1) return invokers[tieIndexes[0]!]!;
  if (!sameWeight && totalWeight > 0) {
    let offset = randomInt(random, totalWeight);
    for (let i = 0; i < tieCount; i++) {
      const index = tieIndexes[i]!;
      offset -= weights[index]!;
      if (offset < 0) return invokers[index]!;
    }
  }
  return invokers[tieIndexes[randomInt(random, tieCount)]!]!;
}
