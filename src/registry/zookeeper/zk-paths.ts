import { DEFAULT_REGISTRY_ROOT, javaUrlEncode, type Url } from "../../core/index.js";
import { ALL_CATEGORIES, ANY_VALUE, CATEGORY_KEY, PROVIDERS_CATEGORY } from "../registry.js";

/**
 * Java Dubbo's ZooKeeper layout (`ZookeeperRegistry.toRootPath/toServicePath/toCategoryPath/toUrlPath`):
 * `/{root}/{URL-encoded interface}/{category}/{URL.encode(url.toFullString())}`.
 */

/** What Java filters children by: the encoded `://`, so only URL nodes are read. */
export const ENCODED_PROTOCOL_SEPARATOR = "%3A%2F%2F";

/** `/` + the registry URL's `group` (default `dubbo`); a group that already starts with `/` is kept. */
export function rootPath(registryUrl: Url): string {
  const group = registryUrl.string("group", DEFAULT_REGISTRY_ROOT);
  return group.startsWith("/") ? group : `/${group}`;
}

function rootDir(root: string): string {
  return root === "/" ? root : `${root}/`;
}

function servicePath(root: string, url: Url): string {
  const name = url.serviceInterface;
  return name === ANY_VALUE ? root : rootDir(root) + javaUrlEncode(name);
}

function categoryPath(root: string, url: Url): string {
  return `${servicePath(root, url)}/${url.string(CATEGORY_KEY, PROVIDERS_CATEGORY)}`;
}

/** The node a registered URL lives at. */
export function urlPath(root: string, url: Url): string {
  return `${categoryPath(root, url)}/${url.encode()}`;
}

/** The category paths a subscription watches: its `category` list, `*` for all, default providers. */
export function categoryPaths(root: string, url: Url): string[] {
  const wanted = url.get(CATEGORY_KEY);
  const categories = wanted === ANY_VALUE ? [...ALL_CATEGORIES] : url.list(CATEGORY_KEY);
  if (categories.length === 0) categories.push(PROVIDERS_CATEGORY);
  const service = servicePath(root, url);
  return categories.map((c) => `${service}/${c}`);
}

export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function parentPath(path: string): string {
  const at = path.lastIndexOf("/");
  return at <= 0 ? "/" : path.slice(0, at);
}
