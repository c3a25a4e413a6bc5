import type { Url } from "../core/index.js";
import { splitList } from "../core/index.js";
import {
  ANY_VALUE,
  CATEGORY_KEY,
  CONFIGURATORS_CATEGORY,
  EMPTY_PROTOCOL,
  PROVIDERS_CATEGORY,
  ROUTERS_CATEGORY,
} from "./registry.js";

const REMOVE_PREFIX = "-";

/** A parameter as Java's `getParameter(key)` sees it: an empty value counts as absent. */
function param(url: Url, key: string): string | undefined {
  const v = url.get(key);
  return v === undefined || v === "" ? undefined : v;
}

/**
 * The category of a notified URL: its `category` parameter, else what its protocol implies
 * (`override://` rules are configurators, `route://`/`condition://` rules are routers), else providers.
 */
export function categoryOf(url: Url): string {
  const explicit = param(url, CATEGORY_KEY);
  if (explicit !== undefined) return explicit;
  switch (url.protocol) {
    case "override":
    case "absent":
      return CONFIGURATORS_CATEGORY;
    case "route":
    case "condition":
    case "script":
    case "tag":
      return ROUTERS_CATEGORY;
    default:
      return PROVIDERS_CATEGORY;
  }
}

/**
 * Java's `UrlUtils.isMatchCategory`: `categories` is the subscriber's list (`*`, a comma list, or
 * `-x` exclusions; absent means providers only). Like Java, the test is a substring test on the list.
 */
export function isMatchCategory(category: string, categories: string | undefined): boolean {
  if (categories === undefined || categories === "") return category === PROVIDERS_CATEGORY;
  if (categories.includes(ANY_VALUE)) return true;
  if (categories.includes(REMOVE_PREFIX)) return !categories.includes(REMOVE_PREFIX + category);
  return categories.includes(category);
}

/** The parameters of a provider URL `isMatch` reads, besides its path. */
export const MATCH_KEYS: ReadonlySet<string> = new Set([
  "interface",
  CATEGORY_KEY,
  "enabled",
  "group",
  "version",
  "classifier",
]);

/**
 * Java's `UrlUtils.isMatch(consumerUrl, providerUrl)`: does a subscription want this URL?
 * - interface: equal, or `*` on either side;
 * - category: the URL's category (default providers) is in the subscriber's `category` list;
 * - `enabled=false` URLs match only a subscriber that asks for `enabled=*`
 *   (`disabled=true` is left to the registry directory, which reports why a provider is unused);
 * - group: subscriber `*`, equal, or one of the subscriber's comma-separated groups;
 * - version: subscriber `*` or string-equal (no version does not match `0.0.0`);
 * - classifier: subscriber absent or `*`, or equal.
 */
export function isMatch(consumer: Url, provider: Url): boolean {
  const consumerInterface = consumer.serviceInterface;
  const providerInterface = provider.serviceInterface;
  if (
    consumerInterface !== ANY_VALUE &&
    providerInterface !== ANY_VALUE &&
    consumerInterface !== providerInterface
  ) {
    return false;
  }
  if (!isMatchCategory(param(provider, CATEGORY_KEY) ?? PROVIDERS_CATEGORY, param(consumer, CATEGORY_KEY))) {
    return false;
  }
  if (!provider.boolean("enabled", true) && param(consumer, "enabled") !== ANY_VALUE) return false;

  const consumerGroup = param(consumer, "group");
  const providerGroup = param(provider, "group");
  const groupMatches =
    consumerGroup === ANY_VALUE ||
    consumerGroup === providerGroup ||
    (consumerGroup !== undefined &&
      providerGroup !== undefined &&
      splitList(consumerGroup).includes(providerGroup));
  if (!groupMatches) return false;

  const consumerVersion = param(consumer, "version");
  if (consumerVersion !== ANY_VALUE && consumerVersion !== param(provider, "version")) return false;

  const consumerClassifier = param(consumer, "classifier") ?? ANY_VALUE;
  const providerClassifier = param(provider, "classifier") ?? ANY_VALUE;
  return consumerClassifier === ANY_VALUE || consumerClassifier === providerClassifier;
}

/** The placeholder that tells a subscriber a category is now empty (Java: the consumer URL as `empty://`). */
export function emptyUrl(subscription: Url, category: string): Url {
  return subscription.with({ protocol: EMPTY_PROTOCOL }).withParams({ [CATEGORY_KEY]: category });
}

export function isEmptyUrl(url: Url): boolean {
  return url.protocol === EMPTY_PROTOCOL;
}
