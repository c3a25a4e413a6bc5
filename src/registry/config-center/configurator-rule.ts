import {
  parseRuleYaml,
  ruleBoolean,
  ruleError,
  ruleList,
  ruleMap,
  ruleString,
  ruleStrings,
} from "../../cluster/index.js";
import { Url } from "../../core/index.js";
import { ANY_HOST, MATCH_CONDITION_KEY, OVERRIDE_PROTOCOL } from "../directory/configurator.js";
import { CATEGORY_KEY, CONFIGURATORS_CATEGORY } from "../registry.js";
import { parseConditionMatch } from "./condition-match.js";

/** The config-center key suffix of override rules (Java's `CONFIGURATORS_SUFFIX`). */
export const CONFIGURATORS_SUFFIX = ".configurators";

const RULE_FIELDS = ["configVersion", "scope", "key", "enabled", "configs"] as const;
const ITEM_FIELDS = [
  "type",
  "enabled",
  "addresses",
  "providerAddresses",
  "services",
  "applications",
  "side",
  "parameters",
  "match",
] as const;

/** `group/interface:version` as override URL parts (Java's `ConfigParser.appendService`). */
function serviceParts(serviceKey: string): { path: string; params: Record<string, string> } {
  let name = serviceKey;
  const params: Record<string, string> = {};
  const slash = name.indexOf("/");
  if (slash > 0) {
    params.group = name.slice(0, slash);
    name = name.slice(slash + 1);
  }
  const colon = name.indexOf(":");
  if (colon > 0) {
    params.version = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  return { path: name, params };
}

/** An item's `parameters` mapping as `[key, value]` strings. */
function parameterChanges(value: unknown, where: string): Array<readonly [string, string]> {
  if (value === undefined || value === null) return [];
  if (typeof value !== "object" || Array.isArray(value))
    throw ruleError(where, "expected a mapping (key: value lines)");
  return Object.entries(value).map(([k, v]) => [k, ruleString(v, `${where}.${k}`) ?? ""] as const);
}

/** The older form: a JSON array of override URLs (Java's `parseJsonArray`). */
function urlArray(text: string): Url[] | undefined {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) && list.length > 0 ? list.map((u) => Url.parse(String(u))) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * dubbo-admin's configurator rule (YAML: `configVersion` v2.7 or v3.0, `scope: service|application`,
 * `key`, `enabled`, `configs[]`) as the `override://` URLs Java's `ConfigParser.parseConfigurators`
 * makes of it, with category `configurators` so the registry directory applies them like the
 * rules under `/dubbo/{interface}/configurators`. A v3.0 item's `match` (address,
 * providerAddress, service, app, param) rides on its URLs as {@link MATCH_CONDITION_KEY}.
 * A JSON array of URLs (the older form) is read as it is. Throws `RpcError` (InvalidArgument)
 * naming `where` and the field at fault (unknown fields included).
 */
export function parseConfiguratorRule(text: string, where: string): Url[] {
  const array = urlArray(text);
  if (array !== undefined) return array;
  const rule = ruleMap(parseRuleYaml(text, where), where, RULE_FIELDS);
  const key = ruleString(rule.key, `${where}: key`) ?? "";
  if (key === "") throw ruleError(where, "the configurator rule has no key");
  const application = ruleString(rule.scope, `${where}: scope`) === "application";
  const configVersion = ruleString(rule.configVersion, `${where}: configVersion`) ?? "";
  const ruleEnabled = ruleBoolean(rule.enabled, `${where}: enabled`, true);
  return ruleList(rule.configs, `${where}: configs`).flatMap((value, i) => {
    const at = `${where}: configs[${i}]`;
    const item = ruleMap(value, at, ITEM_FIELDS);
    const changes = parameterChanges(item.parameters, `${at}.parameters`);
    if (changes.length === 0) throw ruleError(at, "changes no parameter (parameters is empty)");
    if (item.match !== undefined && !configVersion.startsWith("v3.0")) {
      throw ruleError(
        at,
        `has a match, which Java reads only with configVersion: v3.0 (the rule says ${configVersion || "none"})`,
      );
    }
    // Checked here so a bad match fails the rule by name; the directory parses it again from the URL.
    if (item.match !== undefined) parseConditionMatch(item.match, `${at}.match`);
    const listed = ruleStrings(item.addresses, `${at}.addresses`);
    const addresses = listed.length > 0 ? listed : [ANY_HOST];
    const providers = ruleStrings(item.providerAddresses, `${at}.providerAddresses`);
    const side = ruleString(item.side, `${at}.side`);
    const type = ruleString(item.type, `${at}.type`);
    const enabled =
      type === undefined || type === "general"
        ? ruleEnabled
        : ruleBoolean(item.enabled, `${at}.enabled`, false);
    const common: Record<string, string> = {
      [CATEGORY_KEY]: CONFIGURATORS_CATEGORY,
      ...(side === undefined ? {} : { side }),
      ...Object.fromEntries(changes),
      ...(providers.length > 0
        ? { providerAddresses: providers.join(",") }
        : side === "provider"
          ? { providerAddresses: addresses.join(",") }
          : {}),
      enabled: String(enabled),
      configVersion,
      ...(item.match === undefined ? {} : { [MATCH_CONDITION_KEY]: JSON.stringify(item.match) }),
    };
    const listedServices = ruleStrings(item.services, `${at}.services`);
    const services = application ? (listedServices.length > 0 ? listedServices : ["*"]) : [key];
    const apps = application ? [key] : ruleStrings(item.applications, `${at}.applications`);
    return addresses.flatMap((address) =>
      services.flatMap((service) => {
        const { path, params } = serviceParts(service);
        const base = Url.parse(`${OVERRIDE_PROTOCOL}://${address}/${path}`).withParams({
          ...params,
          ...common,
        });
        return apps.length === 0 ? [base] : apps.map((app) => base.withParams({ application: app }));
      }),
    );
  });
}
