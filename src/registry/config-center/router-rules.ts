import {
  CONFIG_CONDITION_ROUTER,
  CONFIG_SCRIPT_ROUTER,
  parseConditionRouterRule,
  parseScriptRouterRule,
  parseTagRouterRule,
  ROUTER_NAMES,
  TAG_ROUTER_PRIORITY,
} from "../../cluster/index.js";
import { javaUrlEncode, Url } from "../../core/index.js";
import { ANY_HOST } from "../directory/configurator.js";
import type { RegistryLogger } from "../registry.js";
import { CATEGORY_KEY, ROUTERS_CATEGORY } from "../registry.js";
import type { RuleParser } from "./rule-node.js";

/** The config-center key suffixes of router rules (Java's `RULE_SUFFIX` of each router). */
export const CONDITION_ROUTER_SUFFIX = ".condition-router";
export const TAG_ROUTER_SUFFIX = ".tag-router";
export const SCRIPT_ROUTER_SUFFIX = ".script-router";

/**
 * Where each rule router sits in the chain: Java's `@Activate` order of the routers that read
 * them (tag 100, service conditions 140, provider-application conditions 145, consumer-application
 * conditions 150, scripts 200).
 */
export const RULE_ROUTER_PRIORITY = {
  tag: TAG_ROUTER_PRIORITY,
  serviceCondition: 140,
  providerAppCondition: 145,
  consumerAppCondition: 150,
  script: 200,
} as const;

/**
 * A rule node's YAML as one `routers` URL for the directory: `{type}://0.0.0.0/{interface}` with
 * the YAML in `rule`, the node path in `ruleKey` and the chain position in `priority`. The rule is
 * parsed here first, so a rule that does not parse never replaces the one in force.
 */
function routerRule(
  type: string,
  validate: (text: string, path: string) => void,
  serviceInterface: string,
  priority: number,
): RuleParser {
  return (text, path) => {
    validate(text, path);
    return [
      Url.parse(`${type}://${ANY_HOST}/${serviceInterface}`).withParams({
        [CATEGORY_KEY]: ROUTERS_CATEGORY,
        rule: javaUrlEncode(text),
        ruleKey: path,
        priority: String(priority),
      }),
    ];
  };
}

export function conditionRule(
  serviceInterface: string,
  priority: number,
  logger: RegistryLogger,
): RuleParser {
  return routerRule(
    CONFIG_CONDITION_ROUTER,
    (text, path) => {
      const rule = parseConditionRouterRule(text, path);
      if (rule.ignored.length > 0) {
        logger.warn(
          `${path}: ${rule.ignored.join(", ")} in conditions have no effect (Java 3.3's condition router v3.1 reads only from and to)`,
        );
      }
    },
    serviceInterface,
    priority,
  );
}

export function tagRule(serviceInterface: string): RuleParser {
  return routerRule(ROUTER_NAMES.tag, parseTagRouterRule, serviceInterface, RULE_ROUTER_PRIORITY.tag);
}

export function scriptRule(serviceInterface: string): RuleParser {
  return routerRule(
    CONFIG_SCRIPT_ROUTER,
    parseScriptRouterRule,
    serviceInterface,
    RULE_ROUTER_PRIORITY.script,
  );
}
