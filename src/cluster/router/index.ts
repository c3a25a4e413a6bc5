// Routers: the chain a directory applies to every provider list, and the built-in routers
// (condition, tag, mock, script) as named RouterFactory extensions.
import type { ExtensionPoint, Url } from "../../core/index.js";
import type { Router, RouterFactory } from "../contracts.js";
import { createConditionRouterFactory } from "./condition-router.js";
import { CONFIG_CONDITION_ROUTER, createConfigConditionRouterFactory } from "./config-condition-router.js";
import { createMockRouterFactory } from "./mock-router.js";
import type { RouterLog } from "./router-log.js";
import { createScriptRouterFactory } from "./script-router.js";
import { CONFIG_SCRIPT_ROUTER, createConfigScriptRouterFactory } from "./script-rule.js";
import { createTagRouterFactory } from "./tag-router.js";

export { createConditionRouter, createConditionRouterFactory } from "./condition-router.js";
export { type ConditionRule, type MatchPair, matchPair, parseConditionRule } from "./condition-rule.js";
export { parseConditionRouterRule } from "./condition-rule-yaml.js";
export { CONFIG_CONDITION_ROUTER } from "./config-condition-router.js";
export { matchGlob, matchGlobWithParam } from "./glob-pattern.js";
export { matchIpExpression } from "./ip-expression.js";
export {
  createMockRouter,
  createMockRouterFactory,
  MOCK_PROTOCOL,
  MOCK_ROUTER_PRIORITY,
} from "./mock-router.js";
export { createMultiDestinationRoute } from "./multi-destination-router.js";
export { type Routed, RouterFailure, routeThrough, sortRouters } from "./router-chain.js";
export { type RouterLog, silentLog } from "./router-log.js";
export {
  parseRuleYaml,
  ruleBoolean,
  ruleError,
  ruleList,
  ruleMap,
  ruleString,
  ruleStrings,
} from "./rule-yaml.js";
export { createScriptRouter, createScriptRouterFactory } from "./script-router.js";
export { CONFIG_SCRIPT_ROUTER, parseScriptRouterRule } from "./script-rule.js";
export {
  type AddressMatch,
  type ListStringMatch,
  matchAddress,
  matchListString,
  matchString,
  type ParamMatch,
  parseAddressMatch,
  parseListStringMatch,
  parseParamMatch,
} from "./string-match.js";
export {
  createTagRouter,
  createTagRouterFactory,
  FORCE_TAG_KEY,
  TAG_KEY,
  TAG_ROUTER_PRIORITY,
} from "./tag-router.js";
export { parseTagRouterRule } from "./tag-rule.js";

/** Names of the built-in router factories. */
export const ROUTER_NAMES = {
  condition: "condition",
  tag: "tag",
  mock: "mock",
  script: "script",
  conditionRule: CONFIG_CONDITION_ROUTER,
  scriptRule: CONFIG_SCRIPT_ROUTER,
} as const;

/**
 * Registers `condition`, `tag`, `mock` and `script` (rule URLs) and `condition-router` and
 * `script-router` (the config center's YAML rules) on an application's router extension point.
 */
export function registerBuiltinRouters(point: ExtensionPoint<RouterFactory>, log?: RouterLog): void {
  point.register(ROUTER_NAMES.condition, createConditionRouterFactory(log));
  point.register(ROUTER_NAMES.tag, createTagRouterFactory());
  point.register(ROUTER_NAMES.mock, createMockRouterFactory());
  point.register(ROUTER_NAMES.script, createScriptRouterFactory(log));
  point.register(ROUTER_NAMES.conditionRule, createConfigConditionRouterFactory(log));
  point.register(ROUTER_NAMES.scriptRule, createConfigScriptRouterFactory(log));
}

/**
 * The routers every reference has (Java activates them on every chain): the mock router (priority
 * -100) and the tag router (100), built from the consumer URL.
 */
export function createBuiltinRouters(point: ExtensionPoint<RouterFactory>, consumerUrl: Url): Router[] {
  return [point.get(ROUTER_NAMES.mock)(consumerUrl), point.get(ROUTER_NAMES.tag)(consumerUrl)];
}

/**
 * Turns the `routers` category of a registry notification into routers, as Java's
 * `RegistryDirectory.toRouters` does: `empty://` entries are skipped, `route://…?router=condition`
 * uses the factory named by `router` (else the URL's protocol names it), and a rule that cannot be
 * built (malformed, unknown type) is reported through `log` and left out rather than failing the
 * whole notification. Identical rule URLs give one router.
 */
export function routersFromRuleUrls(
  point: ExtensionPoint<RouterFactory>,
  ruleUrls: readonly Url[],
  log: RouterLog,
): Router[] {
  const routers: Router[] = [];
  const seen = new Set<string>();
  for (const url of ruleUrls) {
    if (url.protocol === "empty") continue;
    const type = url.get("router");
    const ruleUrl = type !== undefined && type !== "" ? url.with({ protocol: type }) : url;
    const key = ruleUrl.toFullString();
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      routers.push(point.get(ruleUrl.protocol)(ruleUrl));
    } catch (error) {
      log.warn(`router rule ${url.toString()} was ignored`, error);
    }
  }
  return routers;
}
