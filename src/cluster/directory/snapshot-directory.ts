import {
  Code,
  consoleLogger,
  type Invocation,
  type Invoker,
  type Logger,
  RpcError,
  type Url,
} from "../../core/index.js";
import type { Directory, ExclusionReason, Router } from "../contracts.js";
import { RouterFailure, routeThrough, sortRouters } from "../router/router-chain.js";

/** What a directory serves at one moment; replaced whole, never edited. */
export interface DirectorySnapshot {
  /** Every usable provider, before routing. */
  readonly invokers: readonly Invoker[];
  /** Providers known but not usable at all (disabled, mismatched), keyed by `host:port`. */
  readonly excluded: ReadonlyMap<string, ExclusionReason>;
  /** The router chain, sorted by priority (lowest first). */
  readonly routers: readonly Router[];
}

const NONE: ReadonlyMap<string, ExclusionReason> = new Map();
const NO_INVOKERS: readonly Invoker[] = Object.freeze([]);

/**
 * The base of every directory: one immutable snapshot read by the call path and swapped whole when
 * providers or routers change, the router chain applied on every `list`, and the explanation of
 * exclusions the no-provider error needs. Registry directories extend it and call `swap`.
 */
export class SnapshotDirectory implements Directory {
  readonly url: Url;
  #snapshot: DirectorySnapshot;
  #destroyed = false;
  /** Where a router that throws is reported (the call then has no provider). */
  readonly #logger: Logger;

  constructor(url: Url, snapshot: Partial<DirectorySnapshot> = {}, logger: Logger = consoleLogger) {
    this.url = url;
    this.#logger = logger;
    this.#snapshot = freezeSnapshot({
      invokers: snapshot.invokers ?? [],
      excluded: snapshot.excluded ?? NONE,
      routers: sortRouters(snapshot.routers ?? []),
    });
    this.#notifyRouters();
  }

  get snapshot(): DirectorySnapshot {
    return this.#snapshot;
  }

  get destroyed(): boolean {
    return this.#destroyed;
  }

  list(inv: Invocation): readonly Invoker[] {
    if (this.#destroyed) {
      throw new RpcError(
        `directory of ${this.url.serviceKey} is destroyed; method ${inv.method} can no longer be called (the reference was closed)`,
        Code.Unavailable,
      );
    }
    const routed = routeThrough(this.#snapshot.routers, this.#snapshot.invokers, this.url, inv);
    if (!(routed instanceof RouterFailure)) return routed;
    this.#logger.error(
      `router ${routed.router.name} failed for ${this.url.serviceKey}.${inv.method}, so this call has no provider ` +
        "(as Java's directory does); fix or remove the rule",
      routed.error,
    );
    return NO_INVOKERS;
  }

  all(): readonly Invoker[] {
    return this.#snapshot.invokers;
  }

  excluded(): ReadonlyMap<string, ExclusionReason> {
    return this.#snapshot.excluded;
  }

  explain(inv: Invocation): ReadonlyMap<string, ExclusionReason> {
    const reasons = new Map<string, ExclusionReason>(this.excluded());
    let left = this.#snapshot.invokers;
    const routed = routeThrough(this.#snapshot.routers, left, this.url, inv, (router, before, after) => {
      const kept = new Set(after);
      for (const invoker of before) {
        if (!kept.has(invoker)) reasons.set(invoker.url.address, { kind: "router", router: router.name });
      }
      left = after;
    });
    if (routed instanceof RouterFailure) {
      const detail = routed.error instanceof Error ? routed.error.message : String(routed.error);
      for (const invoker of left) {
        reasons.set(invoker.url.address, { kind: "routerFailed", router: routed.router.name, detail });
      }
    }
    return reasons;
  }

  isAvailable(): boolean {
    if (this.#destroyed) return false;
    return this.#snapshot.invokers.some((i) => i.isAvailable());
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
  }

  /**
   * Replaces the snapshot (any field left out keeps its current value) and tells routers that
   * precompute about the new provider list.
   */
  protected swap(next: Partial<DirectorySnapshot>): void {
    const current = this.#snapshot;
    this.#snapshot = freezeSnapshot({
      invokers: next.invokers ?? current.invokers,
      excluded: next.excluded ?? current.excluded,
      routers: next.routers === undefined ? current.routers : sortRouters(next.routers),
    });
    if (next.invokers !== undefined || next.routers !== undefined) this.#notifyRouters();
  }

  #notifyRouters(): void {
    const { invokers, routers } = this.#snapshot;
    for (const router of routers) router.notify?.(invokers);
  }
}

function freezeSnapshot(snapshot: DirectorySnapshot): DirectorySnapshot {
  return Object.freeze({
    invokers: Object.isFrozen(snapshot.invokers) ? snapshot.invokers : Object.freeze([...snapshot.invokers]),
    excluded: snapshot.excluded,
    routers: snapshot.routers,
  });
}
