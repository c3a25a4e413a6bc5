import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { Router, RouterFactory } from "../contracts.js";
import { type ConditionRule, type MatchPair, matchPair, parseConditionRule } from "./condition-rule.js";
import { type RouterLog, ruleOf, silentLog } from "./router-log.js";

/** Java's `ARGUMENTS_PATTERN`: `arguments[0]` compares the first argument's string form. */
const ARGUMENTS_PATTERN = /arguments\[([0-9]+)\]/;

/**
 * Dubbo 2.7's condition router (`condition://0.0.0.0/com.foo.BarService?rule=<encoded>`):
 * consumers matching the `when` side may only call providers matching the `then` side.
 *
 * URL parameters, with Java's defaults: `rule` (URL-encoded), `priority` (0), `force` (false: an
 * empty result falls back to the full list), `enabled` (true), `runtime` (false: the result is
 * cached per provider list, consumer URL and method; a rule on `arguments[n]` is always evaluated
 * per call). A malformed rule throws `RpcError` (InvalidArgument) when the router is created;
 * a rule that is disabled is not parsed, as in Java.
 */
export function createConditionRouterFactory(log: RouterLog = silentLog): RouterFactory {
  return (ruleUrl) => createConditionRouter(ruleUrl, log);
}

export function createConditionRouter(ruleUrl: Url, log: RouterLog = silentLog): Router {
  const enabled = ruleUrl.boolean("enabled", true);
  const priority = ruleUrl.number("priority", 0);
  const force = ruleUrl.boolean("force", false);
  const ruleText = ruleOf(ruleUrl);
  const name = `condition(${ruleText ?? ""})`;
  if (!enabled) {
    return { name, priority, url: ruleUrl, route: (invokers) => invokers };
  }
  const rule = parseConditionRule(ruleText);
  const usesArguments = [...rule.when.keys()].some((key) => key.startsWith("arguments"));
  const runtime = ruleUrl.boolean("runtime", false) || usesArguments;
  // Cached results per provider list (by identity), then consumer URL, then method.
  const cache = new WeakMap<readonly Invoker[], WeakMap<Url, Map<string, readonly Invoker[]>>>();

  const evaluate = (invokers: readonly Invoker[], consumerUrl: Url, inv: Invocation): readonly Invoker[] => {
    try {
      if (!matchWhen(rule, consumerUrl, inv)) return invokers;
      if (rule.then === undefined) {
        log.warn(
          `condition router "${ruleText}" blocks every provider of ${consumerUrl.serviceKey} for consumer ${consumerUrl.host} (the rule's right side is empty)`,
        );
        return [];
      }
      const then = rule.then;
      // Frozen, so the routers after this one can keep what they derive from it (see memoPerList).
      const result = Object.freeze(
        invokers.filter((invoker) => matchCondition(then, invoker.url, consumerUrl, undefined)),
      );
      if (result.length > 0) return result;
      if (force) {
        log.warn(
          `condition router "${ruleText}" leaves no provider of ${consumerUrl.serviceKey} and force=true, so the call gets none`,
        );
        return result;
      }
    } catch (error) {
      log.warn(`condition router "${ruleText}" failed and was skipped for ${consumerUrl.serviceKey}`, error);
    }
    return invokers;
  };

  return {
    name,
    priority,
    url: ruleUrl,
    route(invokers, consumerUrl, inv) {
      if (invokers.length === 0) return invokers;
      if (runtime) return evaluate(invokers, consumerUrl, inv);
      let byUrl = cache.get(invokers);
      if (byUrl === undefined) {
        byUrl = new WeakMap();
        cache.set(invokers, byUrl);
      }
      let byMethod = byUrl.get(consumerUrl);
      if (byMethod === undefined) {
        byMethod = new Map();
        byUrl.set(consumerUrl, byMethod);
      }
      let result = byMethod.get(inv.method);
      if (result === undefined) {
        result = evaluate(invokers, consumerUrl, inv);
        byMethod.set(inv.method, result);
      }
      return result;
    },
  };
}

function matchWhen(rule: ConditionRule, consumerUrl: Url, inv: Invocation): boolean {
  return rule.when.size === 0 || matchCondition(rule.when, consumerUrl, undefined, inv);
}

/**
 * Java's `matchCondition`: every key must pass. A key absent from the URL passes only when it has
 * no `=` values. On the `when` side `method` is the invoked method; `$key` values are read from
 * the consumer URL on the `then` side only.
 */
function matchCondition(
  condition: ReadonlyMap<string, MatchPair>,
  url: Url,
  param: Url | undefined,
  inv: Invocation | undefined,
): boolean {
  let result = false;
  for (const [key, pair] of condition) {
    if (key.startsWith("arguments")) {
      if (!matchArguments(key, pair, inv)) return false;
      result = true;
      continue;
    }
    const sample = sampleValue(url, key, inv);
    if (sample !== undefined) {
      if (!matchPair(pair, sample, param)) return false;
    } else if (pair.matches.size > 0) {
      return false;
    }
    result = true;
  }
  return result;
}

/** The value a condition key reads: the invoked method on the `when` side, else a URL part or parameter. */
export function sampleValue(url: Url, key: string, inv: Invocation | undefined): string | undefined {
  if (inv !== undefined && (key === "method" || key === "methods")) return inv.method;
  switch (key) {
    case "address":
      return url.port > 0 ? `${url.host}:${url.port}` : url.host;
    case "host":
      return url.host;
    // Java's `URL.toMap()`: the URL's own parts override parameters of the same name.
    case "protocol":
      return url.protocol === "" ? url.get(key) : url.protocol;
    case "username":
      return url.username ?? url.get(key);
    case "password":
      return url.password ?? url.get(key);
    case "port":
      return url.port > 0 ? String(url.port) : url.get(key);
    case "path":
      return url.path === "" ? url.get(key) : url.path;
    default:
      return url.get(key);
  }
}

/** `arguments[n]` compares `String(args[n])`; outside the `when` side (no invocation) it never matches. */
export function matchArguments(key: string, pair: MatchPair, inv: Invocation | undefined): boolean {
  if (inv === undefined) return false;
  const found = ARGUMENTS_PATTERN.exec(key.split(".")[0] ?? "");
  if (found === null) return false;
  const index = Number(found[1]);
  if (index >= inv.args.length) return false;
  return matchPair(pair, String(inv.args[index]), undefined);
}
