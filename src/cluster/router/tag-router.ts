import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { Router, RouterFactory } from "../contracts.js";
import { matchIpExpression } from "./ip-expression.js";
import { keepFrozen, memoPerList } from "./list-memo.js";
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

const NO_INVOKERS: readonly Invoker[] = Object.freeze([]);

/**
 * Every route below reads its groups from what the list's snapshot precomputed (see
 * {@link memoPerList}): per call it only reads the invocation's tag and force flag and looks the
 * group up, instead of reading every provider's `dubbo.tag`.
 */
function staticRoute(url: Url | undefined): TagRoute {
  const groups = memoPerList(groupByOwnTag);
  return {
    route(invokers, consumerUrl, inv) {
      if (invokers.length === 0) return invokers;
      const { untagged, byTag } = groups.of(invokers);
      const tag = requestTag(inv, consumerUrl);
      if (tag === undefined) return untagged;
      const tagged = byTag.get(tag) ?? NO_INVOKERS;
      if (tagged.length > 0 || forceTag(inv, consumerUrl, url)) return tagged;
      return untagged;
    },
  };
}

/** One list's providers by their own URL's `dubbo.tag` (Java's static-tag filters, done once). */
interface OwnTagGroups {
  readonly untagged: readonly Invoker[];
  readonly byTag: ReadonlyMap<string, readonly Invoker[]>;
}

const UNTAGGED = "";

function groupByOwnTag(invokers: readonly Invoker[]): OwnTagGroups {
  const lists = new Map<string, Invoker[]>();
  for (const invoker of invokers) {
    const tag = invoker.url.get(TAG_KEY) ?? UNTAGGED;
    const list = lists.get(tag);
    if (list === undefined) lists.set(tag, [invoker]);
    else list.push(invoker);
  }
  const byTag = new Map<string, readonly Invoker[]>();
  for (const [tag, list] of lists) {
    byTag.set(tag, list.length === invokers.length ? invokers : Object.freeze(list));
  }
  return { untagged: byTag.get(UNTAGGED) ?? NO_INVOKERS, byTag };
}

/** One list's providers as a tag rule groups them, for the rule's addresses of the last notify. */
interface RuleTagGroups {
  /** Providers no rule tag names and untagged by their URL: an untagged call's, and the fallback. */
  readonly untagged: readonly Invoker[];
  /** Each rule tag's providers, by the tag's addresses. */
  readonly byRuleTag: ReadonlyMap<string, readonly Invoker[]>;
  /** Providers by their own `dubbo.tag`, for a tag the rule does not name. */
  readonly byOwnTag: ReadonlyMap<string, readonly Invoker[]>;
}

/** Java's `TAG_SEPERATOR`: `a|b` asks for tag `a|b`, else `a`. */
const TAG_LEVEL_SEPARATOR = "|";

function dynamicRoute(rule: TagRouterRule, url: Url | undefined): TagRoute {
  let byTag = tagAddresses(rule, []);
  let tagged = new Set([...byTag.values()].flatMap((addresses) => [...addresses]));
  const groupByRule = (invokers: readonly Invoker[]): RuleTagGroups => {
    const untaggedByRule =
      tagged.size === 0 ? invokers : keepFrozen(invokers, (i) => !addressIn(tagged, i.url));
    const byRuleTag = new Map<string, readonly Invoker[]>();
    for (const [tag, addresses] of byTag)
      byRuleTag.set(
        tag,
        keepFrozen(invokers, (i) => addressIn(addresses, i.url)),
      );
    return {
      untagged: keepFrozen(untaggedByRule, isUntagged),
      byRuleTag,
      byOwnTag: groupByOwnTag(invokers).byTag,
    };
  };
  // The groups depend on the addresses of the last notify too, so a notify drops them.
  const groups = memoPerList(groupByRule);
  return {
    notify(invokers) {
      byTag = tagAddresses(rule, invokers);
      tagged = new Set([...byTag.values()].flatMap((addresses) => [...addresses]));
      groups.clear();
    },
    route(invokers, consumerUrl, inv) {
      if (invokers.length === 0) return invokers;
      const { untagged, byRuleTag, byOwnTag } = groups.of(invokers);
      const tag = requestTag(inv, consumerUrl);
      if (tag === undefined) return untagged;
      const force = forceTag(inv, consumerUrl, url);
      const ruleTag = ruleTagOf(byTag, tag, force);
      let result: readonly Invoker[];
      if (ruleTag !== undefined) {
        result = byRuleTag.get(ruleTag) ?? NO_INVOKERS;
        if (result.length > 0 || rule.force) return result;
      } else {
        result = byOwnTag.get(tag) ?? NO_INVOKERS;
      }
      if (result.length > 0 || force) return result;
      return untagged;
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

/** Java's `selectAddressByTagLevel`: the rule tag whose addresses a request's tag gets, if any. */
function ruleTagOf(
  byTag: ReadonlyMap<string, ReadonlySet<string>>,
  tag: string,
  force: boolean,
): string | undefined {
  if (force || !tag.includes(TAG_LEVEL_SEPARATOR)) return byTag.has(tag) ? tag : undefined;
  const levels = tag.split(TAG_LEVEL_SEPARATOR);
  for (let i = levels.length; i > 0; i--) {
    const level = levels.slice(0, i).join(TAG_LEVEL_SEPARATOR);
    if ((byTag.get(level)?.size ?? 0) > 0) return level;
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
