import { Code, type Filter, type InvokeFn, type Invoker, RpcError } from "../core/index.js";

/**
 * Wraps `invoker` in `filters`, the first one outermost. Each filter is called once here, with the
 * next step and the wrapped invoker, so a call through the chain allocates nothing beyond what the
 * filters themselves do. The result keeps the invoker's URL and contract.
 */
export function buildFilterChain(invoker: Invoker, filters: readonly Filter[]): Invoker {
  if (filters.length === 0) return invoker;
  let next: InvokeFn = (inv) => invoker.invoke(inv);
  for (let i = filters.length - 1; i >= 0; i--) {
    const filter = filters[i];
    const step: unknown = typeof filter === "function" ? filter(next, invoker) : undefined;
    if (typeof step !== "function") {
      throw new RpcError(
        `filter #${i} of ${invoker.url.serviceKey} ${typeof filter === "function" ? "returned" : "is"} ${typeof step === "undefined" ? String(filter) : typeof step}, ` +
          "not a function: a filter is (next, invoker) => (invocation) => Promise<RpcResult>",
        Code.InvalidArgument,
      );
    }
    next = step as InvokeFn;
  }
  const invoke = next;
  return {
    url: invoker.url,
    definition: invoker.definition,
    invoke,
    isAvailable: () => invoker.isAvailable(),
    destroy: () => invoker.destroy(),
  };
}
