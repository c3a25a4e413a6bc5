import type { Invocation, Invoker, Url } from "../../core/index.js";
import type { Router } from "../contracts.js";

/**
 * Orders a router chain by priority, lower first; equal priorities keep their given order
 * (built-in routers before rule routers, as Java's stable sort does).
 */
export function sortRouters(routers: readonly Router[]): readonly Router[] {
  return Object.freeze(
    routers
      .map((router, order) => ({ router, order }))
      .sort((a, b) => a.router.priority - b.router.priority || a.order - b.order)
      .map(({ router }) => router),
  );
}

/** A router that threw while routing a call: the call then has no provider. */
export class RouterFailure {
  constructor(
    readonly router: Router,
    readonly error: unknown,
  ) {}
}

/**
 * One pass of the chain: the providers left (the array itself: a routed call makes no wrapper), or
 * the router that threw (then none are left).
 */
export type Routed = readonly Invoker[] | RouterFailure;

/**
 * Runs `routers` (sorted) over `invokers` as Java 3's `SingleRouterChain` does: each router gets
 * the previous one's survivors, and an empty list ends the chain (Java's default
 * `dubbo.router.should-fail-fast=true`). A router that throws fails the whole routing of this call:
 * Java's directories log "Failed to execute router" and route to no provider, rather than to
 * providers a rule meant to exclude. `onStep` sees each router's input and output.
 */
export function routeThrough(
  routers: readonly Router[],
  invokers: readonly Invoker[],
  consumerUrl: Url,
  inv: Invocation,
  onStep?: (router: Router, before: readonly Invoker[], after: readonly Invoker[]) => void,
): Routed {
  let current = invokers;
  // An index, not for-of: the array iterator and its results were objects made on every call.
  for (let i = 0; i < routers.length && current.length > 0; i++) {
    const router = routers[i]!;
    let next: readonly Invoker[];
    try {
      next = router.route(current, consumerUrl, inv);
    } catch (error) {
      return new RouterFailure(router, error);
    }
    onStep?.(router, current, next);
    current = next;
  }
  return current;
}
