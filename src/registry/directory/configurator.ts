import { splitList, type Url } from "../../core/index.js";
import {
  type ConditionMatch,
  conditionMatches,
  parseConditionMatch,
} from "../config-center/condition-match.js";
import { isEmptyUrl } from "../url-match.js";

/** The host of a rule that applies to every address (Java's `ANYHOST_VALUE`). */
export const ANY_HOST = "0.0.0.0";
export const OVERRIDE_PROTOCOL = "override";
export const ABSENT_PROTOCOL = "absent";
/**
 * The parameter carrying a v3.0 item's `match` (as JSON) on its override URL; Java keeps it as the
 * URL attribute `MATCH_CONDITION`. Never copied onto the configured URL.
 */
export const MATCH_CONDITION_KEY = "MATCH_CONDITION";

/**
 * Keys of a configurator URL that say where it applies, never copied onto the configured URL:
 * Java 2.7.23's `AbstractConfigurator` condition keys, exactly. Every other key of the rule is
 * set as it is (`timeout` up or down, `mock=force:return+null`, `weight`, `disabled`, …; Java
 * copies `providerAddresses` and `priority` too).
 */
const CONDITION_KEYS = new Set([
  "category",
  "check",
  "dynamic",
  "enabled",
  "group",
  "version",
  "application",
  "side",
  "configVersion",
  "compatible_config",
  "interfaces",
]);

/**
 * One `override://` (set) or `absent://` (set where missing) rule, with Java's
 * `AbstractConfigurator` matching:
 * - with `configVersion` (2.7 rules): `side=consumer` rules with no port apply on consumers whose
 *   host is the rule's host (or any, `0.0.0.0`); `side=provider` rules apply to the provider whose
 *   port (and host) they name; v3.x rules (Java 3's matching) leave the port out of both;
 * - without it (the form dubbo-admin 2.6 and scripts write): a rule with a port targets the
 *   provider at `host:port` (on that provider and on every consumer of it); a rule without a port
 *   targets one consumer by host, or everyone with host `0.0.0.0`.
 * Then `providerAddresses`, `application` and `~key=value` conditions must match, and a v3.0 rule's
 * `match` ({@link MATCH_CONDITION_KEY}); `enabled=false` switches the rule itself off.
 */
export interface Configurator {
  readonly url: Url;
  /**
   * Applies the rule to `url` (a provider URL, or a consumer's merged view of one, or the consumer
   * URL). `localHost` is this process's registered host, which consumer-targeted rules name.
   */
  configure(url: Url, localHost: string): Url;
}

function param(url: Url, key: string): string | undefined {
  const v = url.get(key);
  return v === undefined || v === "" ? undefined : v;
}

/**
 * Whether a rule's `providerAddresses` names this provider: Java 3's `isV27ConditionMatchOrUnset`
 * compares each entry (`host:port`, `host`, `0.0.0.0`, `0.0.0.0:*`, `0.0.0.0:port`); Java 2.7
 * looks for the address, or `0.0.0.0`, anywhere in the text, which v2.7 rules keep.
 */
function namesProvider(providerAddresses: string, url: Url, v3: boolean): boolean {
  if (!v3) return providerAddresses.includes(url.address) || providerAddresses.includes(ANY_HOST);
  return splitList(providerAddresses).some(
    (address) =>
      address === url.address ||
      address === ANY_HOST ||
      address === `${ANY_HOST}:*` ||
      address === `${ANY_HOST}:${url.port}` ||
      address === url.host,
  );
}

function createConfigurator(rule: Url): Configurator {
  const absent = rule.protocol === ABSENT_PROTOCOL;
  const changes: Array<readonly [string, string]> = [];
  const conditions: Array<readonly [string, string]> = [];
  for (const [key, value] of rule.params) {
    if (key.startsWith("~") || key === "application" || key === "side") {
      conditions.push([key.startsWith("~") ? key.slice(1) : key, value]);
    }
    if (key.startsWith("~") || CONDITION_KEYS.has(key) || key === MATCH_CONDITION_KEY) continue;
    changes.push([key, value]);
  }
  const providerAddresses = param(rule, "providerAddresses");
  const ruleApplication = param(rule, "application") ?? rule.username;
  const matchJson = param(rule, MATCH_CONDITION_KEY);
  const v3 = (param(rule, "configVersion") ?? "").startsWith("v3");
  const match: ConditionMatch | undefined =
    matchJson === undefined || !v3
      ? undefined
      : parseConditionMatch(JSON.parse(matchJson), `the match of ${rule.toString()}`);

  function apply(url: Url): Url {
    if (absent) {
      const missing = changes.filter(([k]) => !url.has(k));
      return missing.length === 0 ? url : url.withParams(missing);
    }
    return url.withParams(changes);
  }

  function configureIfMatch(host: string, url: Url): Url {
    if (rule.host !== ANY_HOST && rule.host !== host) return url;
    if (providerAddresses !== undefined && !namesProvider(providerAddresses, url, v3)) return url;
    const application = param(url, "application") ?? url.username;
    if (ruleApplication !== undefined && ruleApplication !== "*" && ruleApplication !== application)
      return url;
    for (const [key, value] of conditions) {
      if (value !== "*" && value !== url.get(key)) return url;
    }
    if (match !== undefined && !conditionMatches(match, host, url)) return url;
    return apply(url);
  }

  return {
    url: rule,
    configure(url: Url, localHost: string): Url {
      if (!rule.boolean("enabled", true) || rule.host === "") return url;
      if (param(rule, "configVersion") !== undefined) {
        const side = param(url, "side");
        const ruleSide = param(rule, "side");
        if (side !== ruleSide) return url;
        // Java 2.7 also wants the rule's port to be the provider's (0 for consumers); Java 3 does not.
        if (ruleSide === "consumer" && (v3 || rule.port === 0)) return configureIfMatch(localHost, url);
        if (ruleSide === "provider" && (v3 || url.port === rule.port)) return configureIfMatch(url.host, url);
        return url;
      }
      if (rule.port !== 0) {
        return url.port === rule.port ? configureIfMatch(url.host, url) : url;
      }
      if ((param(url, "side") ?? "provider") === "consumer") return configureIfMatch(localHost, url);
      if (rule.host === ANY_HOST) return configureIfMatch(ANY_HOST, url);
      return url;
    },
  };
}

/**
 * Java's `Configurator.toConfigurators`: an `empty://` entry clears every rule, a rule with no
 * parameter besides `anyhost` clears the rules before it; the rest are sorted so that rules for
 * every host (`0.0.0.0`) apply before rules for one host, then by `priority`, so the more specific
 * rule wins.
 */
export function toConfigurators(urls: readonly Url[]): Configurator[] {
  let configurators: Configurator[] = [];
  for (const url of urls) {
    if (isEmptyUrl(url)) return [];
    if ([...url.params.keys()].every((k) => k === "anyhost")) {
      configurators = [];
      continue;
    }
    configurators.push(createConfigurator(url));
  }
  return configurators.sort(compareConfigurators);
}

function compareConfigurators(a: Configurator, b: Configurator): number {
  if (a.url.host !== b.url.host) return a.url.host < b.url.host ? -1 : 1;
  return a.url.number("priority", 0) - b.url.number("priority", 0);
}

/** Applies the rules in order (later, more specific rules win). */
export function applyConfigurators(url: Url, configurators: readonly Configurator[], localHost: string): Url {
  let out = url;
  for (const configurator of configurators) out = configurator.configure(out, localHost);
  return out;
}

/** Whether a configured URL switches its provider off: `disabled=true`, else `enabled=false`. */
export function isDisabled(url: Url): boolean {
  if (url.has("disabled")) return url.boolean("disabled", false);
  return !url.boolean("enabled", true);
}

/** `a,b` lists as a set, for `protocol=` filters. */
export function listParam(url: Url, key: string): string[] | undefined {
  const v = param(url, key);
  return v === undefined ? undefined : splitList(v);
}
