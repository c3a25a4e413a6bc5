import { Code, javaUrlDecode, RpcError, type Url } from "../../core/index.js";

/** Where routers report what they skipped or could not evaluate (the app passes its logger). */
export interface RouterLog {
  warn(message: string, error?: unknown): void;
}

/** For tests and for callers that do not want router warnings. */
export const silentLog: RouterLog = { warn: () => {} };

/**
 * The rule text of a rule URL: the `rule` parameter, URL-decoded once as Java's
 * `getParameterAndDecoded` does. Bad encoding is an `RpcError` (InvalidArgument) naming the URL.
 */
export function ruleOf(ruleUrl: Url): string | undefined {
  const raw = ruleUrl.get("rule");
  if (raw === undefined || raw === "") return undefined;
  try {
    return javaUrlDecode(raw);
  } catch (cause) {
    throw new RpcError(
      `router rule URL ${ruleUrl.toString()} has a "rule" parameter that is not validly URL-encoded (encode it with encodeURIComponent)`,
      Code.InvalidArgument,
      { cause },
    );
  }
}
