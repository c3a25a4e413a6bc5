import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { Router, RouterFactory } from "../contracts.js";
import { matchIpExpression } from "./ip-expression.js";
import { ruleOf } from "./router-log.js";
import { matchString } from "./string-match.js";
import { parseTagRouterRule, type TagRouterRule } from "./tag-rule.js";

/** The request attachment and URL parameter naming a tag (`TAG_KEY` in Java). */
export const TAG_KEY = "dubbo.tag";
/** When true, a tagged request never falls back to untagged providers (`FORCE_USE_TAG`). */
export const FORCE_TAG_KEY = "dubbo.force.tag";
/** Java's `TAG_ROUTER_DEFAULT_PRIORITY`: after the mock router, after condition rules. */
export const TAG_ROUTER_PRIORITY = 100;

/**
 * Java's tag router. Without a rule, static-tag mode (`filterUsingStaticTag`): the request's tag
 * comes from the `dubbo.tag` attachment, else the consumer URL's `dubbo.tag`.
 * - A tagged request gets the providers whose URL has that `dubbo.tag`; when there are none it
 *   falls back to the untagged providers, unless `dubbo.force.tag=true` (attachment, else consumer
 *   URL, else the router's URL), in which case it gets none.
 * - An untagged request gets only untagged providers.
 *
 * With a rule (`rule` = the YAML of `{provider application}.tag-router`, see {@link parseTagRouterRule}),
 * dynamic mode (Java's `TagStateRouter.doRoute`): tags name providers by address or (v3.0) by
 * parameter match; a tagged request gets that tag's providers (`a|b` tags fall back level by
 * level), an untagged one the providers no tag names. A disabled rule means static mode.
 */
export function createTagRouter(url: Url | undefined = undefined): Router {
  const text = url === undefined ? undefined : ruleOf(url);
  const rule =
    url === undefined || text === undefined
      ? undefined
      : parseTagRouterRule(text, url.string("ruleKey", url.toString()));
  const route = rule === undefined || !rule.enabled ? staticRoute(url) : dynamicRoute(rule, url);
  return { name: "tag", priority: TAG_ROUTER_PRIORITY, url, ...route };
}

type TagRoute = Pick<Router, "route" | "notify">;

function staticRoute(url: Url | undefined): TagRoute {
  return {
    route(invokers, consumerUrl, inv) {
      if (invokers.length === 0) return invokers;
      const tag = requestTag(inv, consumerUrl);
      if (tag === undefined) return keep(invokers, isUntagged);
      const tagged = keep(invokers, (invoker) => invoker.url.get(TAG_KEY) === tag);
      if (tagged.length > 0 || forceTag(inv, consumerUrl, url)) return tagged;
      return keep(invokers, isUntagged);
    },
  };
}

/** Java's `TAG_SEPERATOR`: `a|b` asks for tag `a|b`, else `a`. */
const TAG_LEVEL_SEPARATOR = "|";

function dynamicRoute(rule: TagRouterRule, url: Url | undefined): TagRoute {
  let byTag = tagAddresses(rule, []);
  let tagged = new Set([...byTag.values()].flatMap((addresses) => [...addresses]));
  return {
    notify(invokers) {
      byTag = tagAddresses(rule, invokers);
      tagged = new Set([...byTag.values()].flatMap((addresses) => [...addresses]));
    },
    route(invokers, consumerUrl, inv) {
      if (invokers.length === 0) return invokers;
      const tag = requestTag(inv, consumerUrl);
      if (tag === undefined) {
        const untaggedByRule =
          tagged.size === 0 ? invokers : keep(invokers, (i) => !addressIn(tagged, i.url));
        return untaggedByRule.length === 0 ? untaggedByRule : keep(untaggedByRule, isUntagged);
      }
      const force = forceTag(inv, consumerUrl, url);
      const addresses = addressesOfTag(byTag, tag, force);
      let result: readonly Invoker[];
      if (addresses !== undefined) {
        result = keep(invokers, (i) => addressIn(addresses, i.url));
        if (result.length > 0 || rule.force) return result;
      } else {
        result = keep(invokers, (i) => i.url.get(TAG_KEY) === tag);
      }
      if (result.length > 0 || force) return result;
      return keep(
        keep(invokers, (i) => !addressIn(tagged, i.url)),
        isUntagged,
      );
    },
  };
}

/** Java's `TagRouterRule.init`: each tag's addresses, the v3.0 `match` ones from the providers' parameters. */
function tagAddresses(rule: TagRouterRule, invokers: readonly Invoker[]): Map<string, ReadonlySet<string>> {
  const byTag = new Map<string, ReadonlySet<string>>();
  for (const tag of rule.tags) {
    if (tag.addresses.length > 0) byTag.set(tag.name, new Set(tag.addresses));
  }
  for (const tag of rule.tags) {
    const match = tag.match;
    if (tag.addresses.length > 0 || match === undefined) continue;
    const addresses = invokers
      .filter((i) => match.every((m) => matchString(m.value, i.url.get(m.key))))
      .map((i) => i.url.address);
    if (addresses.length > 0) byTag.set(tag.name, new Set(addresses));
  }
  return byTag;
}

/** Java's `selectAddressByTagLevel`. */
function addressesOfTag(
  byTag: ReadonlyMap<string, ReadonlySet<string>>,
  tag: string,
  force: boolean,
): ReadonlySet<string> | undefined {
  if (force || !tag.includes(TAG_LEVEL_SEPARATOR)) return byTag.get(tag);
  const levels = tag.split(TAG_LEVEL_SEPARATOR);
  for (let i = levels.length; i > 0; i--) {
    const addresses = byTag.get(levels.slice(0, i).join(TAG_LEVEL_SEPARATOR));
    if (addresses !== undefined && addresses.size > 0) return addresses;
  }
  return undefined;
}

/** Java's `checkAddressMatch`: an IP expression per address, or `0.0.0.0:port`. */
function addressIn(addresses: ReadonlySet<string>, url: Url): boolean {
  for (const address of addresses) {
    if (matchIpExpression(address, url.host, url.port) || address === `0.0.0.0:${url.port}`) return true;
  }
  return false;
}

export const createTagRouterFactory = (): RouterFactory => (url) => createTagRouter(url);

function requestTag(inv: Invocation, consumerUrl: Url): string | undefined {
  const attached = inv.attachments[TAG_KEY];
  if (typeof attached === "string" && attached !== "") return attached;
  const configured = consumerUrl.get(TAG_KEY);
  return configured === undefined || configured === "" ? undefined : configured;
}

function forceTag(inv: Invocation, consumerUrl: Url, routerUrl: Url | undefined): boolean {
  const attached = inv.attachments[FORCE_TAG_KEY];
  const value = attached ?? consumerUrl.get(FORCE_TAG_KEY) ?? routerUrl?.get(FORCE_TAG_KEY);
  // Java's Boolean.parseBoolean: "true" in any case.
  return value === true || (typeof value === "string" && value.toLowerCase() === "true");
}

function isUntagged(invoker: Invoker): boolean {
  const tag = invoker.url.get(TAG_KEY);
  return tag === undefined || tag === "";
}

/** Java's `filterInvoker`: the same list when everything passes, so unchanged lists are not copied. */
function keep(invokers: readonly Invoker[], predicate: (invoker: Invoker) => boolean): readonly Invoker[] {
  return invokers.every(predicate) ? invokers : invokers.filter(predicate);
}
