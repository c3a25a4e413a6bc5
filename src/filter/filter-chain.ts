import { Code, type Filter, type InvokeFn, type Invoker, RpcError } from "../core/index.js";
import { chainSteps } from "./call-listener.js";

/**
 * Wraps `invoker` in `filters`, the first one outermost. Each filter is called once here, with the
 * next step and the wrapped invoker, so a call through the chain allocates nothing beyond what the
 * filters themselves do; adjacent listener filters (`listenerFilter`) share one promise step.
 * The result keeps the invoker's URL and contract.
 */
export function buildFilterChain(invoker: Invoker, filters: readonly Filter[]): Invoker {
  if (filters.length === 0) return invoker;
  const invoke = chainSteps(
    (inv) => invoker.invoke(inv),
    invoker,
    filters,
    (filter, i, next) => {
      const step: unknown = typeof filter === "function" ? filter(next, invoker) : undefined;
      if (typeof step !== "function") {
        throw new RpcError(
          `filter #${i} of ${invoker.url.serviceKey} ${typeof filter === "function" ? "returned" : "is"} ${typeof step === "undefined" ? String(filter) : typeof step}, ` +
            "not a function: a filter is (next, invoker) => (invocation) => Promise<RpcResult>",
          Code.InvalidArgument,
        );
      }
      return step as InvokeFn;
    },
  );
  return {
    url: invoker.url,
    definition: invoker.definition,
    invoke,
    isAvailable: () => invoker.isAvailable(),
    destroy: () => invoker.destroy(),
  };
}
