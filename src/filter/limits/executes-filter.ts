import { Code, DEFAULT_EXECUTES, type Filter, type FilterExtension, RpcError } from "../../core/index.js";

interface MethodLimit {
  readonly max: number;
  active: number;
}

/**
 * Provider side (Java's ExecuteLimitFilter): at most `executes` calls of a method run at once on
 * this provider (`sayHello.executes` over `executes`); one more is refused at once with
 * ResourceExhausted, which consumers treat as a busy provider and retry elsewhere.
 */
export const executesFilter: Filter = (next, invoker) => {
  const url = invoker.url;
  const limits = new Map<string, MethodLimit>();
  const release = (limit: MethodLimit): void => {
    limit.active--;
  };
  return (inv) => {
    let limit = limits.get(inv.method);
    if (limit === undefined) {
      limit = { max: url.methodNumber(inv.method, "executes", DEFAULT_EXECUTES), active: 0 };
      limits.set(inv.method, limit);
    }
    if (limit.max <= 0) return next(inv);
    if (limit.active >= limit.max) {
      return Promise.reject(
        new RpcError(
          `${url.serviceKey}.${inv.method} at ${url.address} is busy: ${limit.active} calls are running, ` +
            `the limit is executes=${limit.max} (raise \`executes\` or \`${inv.method}.executes\`)`,
          Code.ResourceExhausted,
        ),
      );
    }
    limit.active++;
    let result: Promise<Awaited<ReturnType<typeof next>>>;
    try {
      result = next(inv);
    } catch (error) {
      release(limit);
      return Promise.reject(error);
    }
    const held = limit;
    return result.finally(() => release(held));
  };
};

export const executesFilterExtension: FilterExtension = Object.freeze({
  filter: executesFilter,
  activate: Object.freeze({ side: "provider", keys: Object.freeze(["executes"]) }),
});
