import { javaUrlEncode, type Url } from "../../core/index.js";
import type { Router, RouterFactory } from "../contracts.js";
import { type RouterLog, ruleOf, silentLog } from "./router-log.js";
import {
  parseRuleYaml,
  ROUTER_RULE_HEAD_FIELDS,
  type RouterRuleHead,
  routerRuleHead,
  ruleError,
  ruleMap,
  ruleString,
} from "./rule-yaml.js";
import { createScriptRouter } from "./script-router.js";

/** The router type of a config-center script rule (`{provider application}.script-router`). */
export const CONFIG_SCRIPT_ROUTER = "script-router";

export type ScriptRouterRule = RouterRuleHead & { readonly type: string; readonly script: string };

/**
 * A script rule as dubbo-admin writes it (Java's `ScriptRule`): `type` (default `javascript`),
 * `script` (the JavaScript), and the common `enabled`, `force`, `runtime`, `priority`.
 * Throws `RpcError` (InvalidArgument) naming `where` and the field at fault.
 */
export function parseScriptRouterRule(text: string, where: string): ScriptRouterRule {
  const rule = ruleMap(parseRuleYaml(text, where), where, [...ROUTER_RULE_HEAD_FIELDS, "type", "script"]);
  const script = ruleString(rule.script, `${where}: script`);
  if (script === undefined || script.trim() === "") {
    throw ruleError(where, "the rule has no script (script: the JavaScript returning the invokers to keep)");
  }
  return {
    ...routerRuleHead(rule, where),
    type: ruleString(rule.type, `${where}: type`) ?? "javascript",
    script,
  };
}

/**
 * A config-center script rule as a router (Java's `AppScriptStateRouter`): the script router of
 * {@link createScriptRouter} with the rule's type, script, force and runtime; a disabled rule
 * routes nothing. The rule URL carries the YAML in `rule` and the router's `priority`.
 */
export function createConfigScriptRouterFactory(log: RouterLog = silentLog): RouterFactory {
  return (ruleUrl) => createConfigScriptRouter(ruleUrl, log);
}

function createConfigScriptRouter(ruleUrl: Url, log: RouterLog): Router {
  const where = ruleUrl.string("ruleKey", ruleUrl.toString());
  const rule = parseScriptRouterRule(ruleOf(ruleUrl) ?? "", where);
  const priority = ruleUrl.number("priority", 0);
  if (!rule.enabled)
    return { name: `script-rule(${where})`, priority, url: ruleUrl, route: (invokers) => invokers };
  const script = createScriptRouter(
    ruleUrl.withoutParams("ruleKey").withParams({
      type: rule.type,
      rule: javaUrlEncode(rule.script),
      force: String(rule.force),
      runtime: String(rule.runtime),
    }),
    log,
  );
  return { ...script, name: `script-rule(${where})`, priority };
}
