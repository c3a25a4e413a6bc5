import { type Invoker, javaUrlEncode, type Url } from "../../core/index.js";
import type { Router, RouterFactory } from "../contracts.js";
import { createConditionRouter } from "./condition-router.js";
import { parseConditionRouterRule } from "./condition-rule-yaml.js";
import { createMultiDestinationRoute, type ProviderListRoute } from "./multi-destination-router.js";
import { type RouterLog, ruleOf, silentLog } from "./router-log.js";

/** The router type of a config-center condition rule (`{key}.condition-router`, YAML in `rule`). */
export const CONFIG_CONDITION_ROUTER = "condition-router";

/**
 * A config-center condition rule as one router (Java's `ListenableStateRouter`): its conditions
 * applied one after another, each a Dubbo 2.7 condition router (v2.7 strings, with the rule's
 * `force`, `enabled` and `runtime`) or a multi-destination condition (v3.1). The rule URL carries
 * the YAML in `rule` and the router's `priority` (the config center sets it from the rule's key).
 * A disabled rule routes nothing.
 */
export function createConfigConditionRouterFactory(log: RouterLog = silentLog): RouterFactory {
  return (ruleUrl) => createConfigConditionRouter(ruleUrl, log);
}

export function createConfigConditionRouter(ruleUrl: Url, log: RouterLog = silentLog): Router {
  const where = ruleUrl.string("ruleKey", ruleUrl.toString());
  const rule = parseConditionRouterRule(ruleOf(ruleUrl) ?? "", where);
  const steps: ProviderListRoute[] = !rule.enabled
    ? []
    : rule.version === "v3.1"
      ? rule.conditions.map((c) => createMultiDestinationRoute(c, rule.force, log))
      : rule.conditions.map((condition) => {
          const router = createConditionRouter(
            ruleUrl.withoutParams("ruleKey").withParams({
              rule: javaUrlEncode(condition),
              force: String(rule.force),
              runtime: String(rule.runtime),
            }),
            log,
          );
          return (invokers: readonly Invoker[], consumerUrl: Url, inv) =>
            router.route(invokers, consumerUrl, inv);
        });
  return {
    name: `condition-rule(${where})`,
    priority: ruleUrl.number("priority", 0),
    url: ruleUrl,
    route(invokers, consumerUrl, inv) {
      let current = invokers;
      for (const step of steps) current = step(current, consumerUrl, inv);
      return current;
    },
  };
}
