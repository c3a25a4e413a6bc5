import type { Invoker } from "../../core/index.js";
import { INVOCATION_NEED_MOCK, type Router, type RouterFactory } from "../contracts.js";
import { keepFrozen, memoPerList } from "./list-memo.js";

/** Providers with this URL protocol implement mock calls. */
export const MOCK_PROTOCOL = "mock";
/** Java's `MOCK_INVOKERS_DEFAULT_PRIORITY`: the first router of every chain. */
export const MOCK_ROUTER_PRIORITY = -100;

/**
 * Dubbo's `MockInvokersSelector`: a call marked `invocation.need.mock=true` gets only the `mock://`
 * providers (none when there are none); a call without the mark never gets them. As in Java, any
 * other value of the mark (e.g. "false") leaves the list untouched.
 */
export function createMockRouter(): Router {
  // Both kept per frozen list, as Java's `notify` caches them (frozen, so the tag router after this
  // one keeps its groups too).
  const withoutMocks = memoPerList((invokers) => keepFrozen(invokers, (invoker) => !isMock(invoker)));
  const mocksOnly = memoPerList((invokers) => keepFrozen(invokers, isMock));
  return {
    name: "mock",
    priority: MOCK_ROUTER_PRIORITY,
    url: undefined,
    route(invokers, _consumerUrl, inv) {
      if (invokers.length === 0) return invokers;
      const mark = inv.attachments[INVOCATION_NEED_MOCK];
      if (mark === undefined || mark === null) {
        return withoutMocks.of(invokers);
      }
      if (mark === true || (typeof mark === "string" && mark.toLowerCase() === "true")) {
        return mocksOnly.of(invokers);
      }
      return invokers;
    },
  };
}

export const createMockRouterFactory = (): RouterFactory => () => createMockRouter();

function isMock(invoker: Invoker): boolean {
  return invoker.url.protocol === MOCK_PROTOCOL;
}
