import type { Url } from "../../core/index.js";

/**
 * Dubbo's glob match for rule values (`UrlUtils.isMatchGlobPattern`): `*` matches anything; one `*`
 * (the last one) splits the pattern into a prefix and a suffix; no `*` means equality. An empty
 * pattern matches only an empty value.
 */
export function matchGlob(pattern: string | undefined, value: string | undefined): boolean {
  if (pattern === "*") return true;
  const emptyPattern = pattern === undefined || pattern === "";
  const emptyValue = value === undefined || value === "";
  if (emptyPattern || emptyValue) return emptyPattern && emptyValue;
  const star = pattern.lastIndexOf("*");
  if (star < 0) return value === pattern;
  if (star === pattern.length - 1) return value.startsWith(pattern.slice(0, star));
  if (star === 0) return value.endsWith(pattern.slice(1));
  return value.startsWith(pattern.slice(0, star)) && value.endsWith(pattern.slice(star + 1));
}

/**
 * As {@link matchGlob}, but a pattern `$key` is first replaced by that key of `param` (the
 * consumer's URL), as Java's `getRawParameter` reads it: URL parts first, then parameters.
 */
export function matchGlobWithParam(
  pattern: string,
  value: string | undefined,
  param: Url | undefined,
): boolean {
  if (param !== undefined && pattern.startsWith("$"))
    return matchGlob(rawParameter(param, pattern.slice(1)), value);
  return matchGlob(pattern, value);
}

/** Java's `URL.getRawParameter`: `protocol`, `username`, `password`, `host`, `port`, `path`, else a parameter. */
function rawParameter(url: Url, key: string): string | undefined {
  switch (key) {
    case "protocol":
      return url.protocol === "" ? undefined : url.protocol;
    case "username":
      return url.username;
    case "password":
      return url.password;
    case "host":
      return url.host;
    case "port":
      return String(url.port);
    case "path":
      return url.path;
    default:
      return url.get(key);
  }
}
