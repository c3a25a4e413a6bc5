import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { Router, RouterFactory } from "../contracts.js";

/** The request attachment and URL parameter naming a tag (`TAG_KEY` in Java). */
export const TAG_KEY = "dubbo.tag";
/** When true, a tagged request never falls back to untagged providers (`FORCE_USE_TAG`). */
export const FORCE_TAG_KEY = "dubbo.force.tag";
/** Java's `TAG_ROUTER_DEFAULT_PRIORITY`: after the mock router, after condition rules. */
export const TAG_ROUTER_PRIORITY = 100;

/**
 * Dubbo 2.7's tag router in static-tag mode (`filterUsingStaticTag`): the request's tag comes from
 * the `dubbo.tag` attachment, else the consumer URL's `dubbo.tag`.
 * - A tagged request gets the providers whose URL has that `dubbo.tag`; when there are none it
 *   falls back to the untagged providers, unless `dubbo.force.tag=true` (attachment, else consumer
 *   URL, else the router's URL), in which case it gets none.
 * - An untagged request gets only untagged providers.
 *
 * Out of scope: the dynamic tag rules (`{application}.tag-router` YAML from the config center,
 * which map tags to addresses); with no dynamic rule Java behaves exactly as this router does.
 */
export function createTagRouter(url: Url | undefined = undefined): Router {
  return {
    name: "tag",
    priority: TAG_ROUTER_PRIORITY,
    url,
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
