import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { Router } from "../contracts.js";
import { type RouterLog, silentLog } from "./router-log.js";

/** The survivors of a chain and, for each removed provider's address, the router that removed it. */
export interface RoutedWithReasons {
  readonly invokers: readonly Invoker[];
  readonly excludedBy: ReadonlyMap<string, string>;
}

/**
 * The routers of one reference, ordered by priority (lower first; equal priorities keep their
 * order, built-in routers before rule routers, as Java's stable sort does). Immutable: a change of
 * rules derives a new chain, which the directory swaps in.
 */
export interface RouterChain {
  readonly routers: readonly Router[];
  /** Routers that always exist (mock, tag); kept when rules change. */
  readonly builtin: readonly Router[];
  /** The call path: every router in order, without bookkeeping. */
  route(invokers: readonly Invoker[], consumerUrl: Url, inv: Invocation): readonly Invoker[];
  /** As `route`, also naming the router that removed each provider (for the no-provider error). */
  routeWithReasons(invokers: readonly Invoker[], consumerUrl: Url, inv: Invocation): RoutedWithReasons;
  /** Tells routers that precompute about a new provider list (Java's `RouterChain.setInvokers`). */
  notify(invokers: readonly Invoker[]): void;
  /** A chain with the same built-in routers and these rule routers instead of the current ones. */
  withRuleRouters(ruleRouters: readonly Router[]): RouterChain;
}

export interface RouterChainOptions {
  readonly builtin?: readonly Router[];
  readonly rules?: readonly Router[];
  /** Where a router that throws is reported; the chain then goes on with the list unchanged. */
  readonly log?: RouterLog;
}

export function createRouterChain(options: RouterChainOptions = {}): RouterChain {
  const builtin = options.builtin ?? [];
  const log = options.log ?? silentLog;
  const routers = Object.freeze(
    [...builtin, ...(options.rules ?? [])]
      .map((router, order) => ({ router, order }))
      .sort((a, b) => a.router.priority - b.router.priority || a.order - b.order)
      .map(({ router }) => router),
  );

  const step = (router: Router, invokers: readonly Invoker[], consumerUrl: Url, inv: Invocation) => {
    try {
      return router.route(invokers, consumerUrl, inv);
    } catch (error) {
      log.warn(
        `router ${router.name} failed for ${consumerUrl.serviceKey}.${inv.method} and was skipped for this call`,
        error,
      );
      return invokers;
    }
  };

  return {
    routers,
    builtin,
    route(invokers, consumerUrl, inv) {
      let current = invokers;
      for (const router of routers) current = step(router, current, consumerUrl, inv);
      return current;
    },
    routeWithReasons(invokers, consumerUrl, inv) {
      const excludedBy = new Map<string, string>();
      let current = invokers;
      for (const router of routers) {
        const next = step(router, current, consumerUrl, inv);
        if (next !== current) {
          const kept = new Set(next);
          for (const invoker of current) {
            const address = invoker.url.address;
            if (!kept.has(invoker) && !excludedBy.has(address)) excludedBy.set(address, router.name);
          }
        }
        current = next;
      }
      return { invokers: current, excludedBy };
    },
    notify(invokers) {
      for (const router of routers) {
        try {
          router.notify?.(invokers);
        } catch (error) {
          log.warn(`router ${router.name} failed to take the new provider list`, error);
        }
      }
    },
    withRuleRouters(ruleRouters) {
      return createRouterChain({ builtin, rules: ruleRouters, log });
    },
  };
}
