import type { Invocation, Invoker, Url } from "../../core/index.js";
import { matchArguments, sampleValue } from "./condition-router.js";
import { type MatchPair, matchPair, parseConditionSide } from "./condition-rule.js";
import type { MultiDestinationCondition } from "./condition-rule-yaml.js";
import { type RouterLog, silentLog } from "./router-log.js";

type Condition = ReadonlyMap<string, MatchPair>;

/** What one v3.1 condition does with a provider list (Java's `MultiDestConditionRouter`). */
export type ProviderListRoute = (
  invokers: readonly Invoker[],
  consumerUrl: Url,
  inv: Invocation,
) => readonly Invoker[];

const ATTACHMENTS_PATTERN = /^attachments\[(.+)\]$/;

/**
 * One condition of a v3.1 rule: a consumer call matching `from` goes to the providers of one `to`
 * destination, picked at random by weight among the destinations that have providers. No
 * destination with providers: the list stays as it was, unless `force` (then no provider).
 * An empty `to` list sends matching calls nowhere. As in Java 3, a key the URL (or the call) does
 * not have fails its match, and a blank `to` match keeps every provider.
 */
export function createMultiDestinationRoute(
  condition: MultiDestinationCondition,
  force: boolean,
  log: RouterLog = silentLog,
  random: () => number = Math.random,
): ProviderListRoute {
  const when = isBlank(condition.from, "true") ? new Map() : parseConditionSide(condition.from);
  const destinations = condition.to.map((to) => ({
    target: isBlank(to.match, "false") ? (new Map() as Condition) : parseConditionSide(to.match),
    weight: to.weight,
  }));
  return (invokers, consumerUrl, inv) => {
    if (invokers.length === 0 || !matches(when, consumerUrl, undefined, inv)) return invokers;
    if (destinations.length === 0) {
      log.warn(
        `condition rule from "${condition.from}" has no destination: ${consumerUrl.serviceKey} gets no provider`,
      );
      return [];
    }
    const found = destinations
      .map(({ target, weight }) => ({
        weight,
        invokers: invokers.filter((invoker) => matches(target, invoker.url, consumerUrl, undefined)),
      }))
      .filter((d) => d.invokers.length > 0);
    if (found.length === 1) return found[0]?.invokers ?? invokers;
    if (found.length > 1) return pickByWeight(found, random);
    if (force) {
      log.warn(
        `condition rule from "${condition.from}" leaves no provider of ${consumerUrl.serviceKey} and force=true, so the call gets none`,
      );
      return [];
    }
    return invokers;
  };
}

function isBlank(text: string, literal: string): boolean {
  return text.trim() === "" || text.trim() === literal;
}

/** Java's `DestinationSet.randDestination`: a draw in [0, sum), the first destination it falls in. */
function pickByWeight(
  found: ReadonlyArray<{ weight: number; invokers: readonly Invoker[] }>,
  random: () => number,
): readonly Invoker[] {
  const sum = found.reduce((total, d) => total + d.weight, 0);
  let draw = Math.floor(random() * sum);
  for (const destination of found) {
    draw -= destination.weight;
    if (draw <= 0) return destination.invokers;
  }
  return [];
}

function matches(
  condition: Condition,
  url: Url,
  param: Url | undefined,
  inv: Invocation | undefined,
): boolean {
  for (const [key, pair] of condition) {
    if (key.startsWith("arguments")) {
      if (!matchArguments(key, pair, inv)) return false;
      continue;
    }
    const attachment = ATTACHMENTS_PATTERN.exec(key);
    const value = attachment === null ? sampleValue(url, key, inv) : attachmentOf(inv, attachment[1] ?? "");
    if (value === undefined || !matchPair(pair, value, param)) return false;
  }
  return true;
}

function attachmentOf(inv: Invocation | undefined, key: string): string | undefined {
  const value = inv?.attachments[key];
  return value === undefined || value === null ? undefined : String(value);
}
