import { Code, type Filter, type FilterExtension, RpcError } from "../core/index.js";

/** Java's `ConfigUtils.isEmpty`: these values mean "no token". */
const NO_TOKEN: ReadonlySet<string> = new Set(["", "false", "0", "null", "n/a"]);

/**
 * Provider side (Java's TokenFilter, on where the URL has `token`): a call must carry the export's
 * `token` as an attachment, which consumers learn from the provider URL in the registry; any other
 * call is refused before it reaches the service.
 */
const tokenFilter: Filter = (next, invoker) => {
  const url = invoker.url;
  const token = url.get("token");
  if (token === undefined || NO_TOKEN.has(token.toLowerCase())) return next;
  return (inv) => {
    const sent = inv.attachments.token;
    if (sent === token) return next(inv);
    return Promise.reject(
      new RpcError(
        `Invalid token! Forbid invoke remote service ${url.serviceInterface} method ${inv.method}() from consumer ` +
          `${inv.remoteAddress ?? "in-process"} to provider ${url.host}, consumer incorrect token is ${String(sent)} ` +
          "(the caller must send the provider's `token`, which it learns from the registry)",
        Code.PermissionDenied,
      ),
    );
  };
};

export const tokenFilterExtension: FilterExtension = Object.freeze({
  filter: tokenFilter,
  activate: Object.freeze({ side: "provider", order: 0, keys: Object.freeze(["token"]) }),
});
