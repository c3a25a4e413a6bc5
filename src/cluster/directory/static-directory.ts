import type { Invoker, Logger, Url } from "../../core/index.js";
import type { Router } from "../contracts.js";
import { SnapshotDirectory } from "./snapshot-directory.js";

/**
 * A directory over a fixed set of invokers (direct `url=` references, tests, a registry's
 * per-registry invokers). Routers still apply on every `list`; `setInvokers` and `setRouters`
 * swap the snapshot for callers that manage the list themselves.
 */
export class StaticDirectory extends SnapshotDirectory {
  constructor(url: Url, invokers: readonly Invoker[], routers: readonly Router[] = [], logger?: Logger) {
    super(url, { invokers, routers }, logger);
  }

  setInvokers(invokers: readonly Invoker[]): void {
    this.swap({ invokers });
  }

  setRouters(routers: readonly Router[]): void {
    this.swap({ routers });
  }

  override async destroy(): Promise<void> {
    if (this.destroyed) return;
    await super.destroy();
    await Promise.allSettled(this.all().map((i) => i.destroy()));
  }
}

export function createStaticDirectory(
  url: Url,
  invokers: readonly Invoker[],
  routers: readonly Router[] = [],
  logger?: Logger,
): StaticDirectory {
  return new StaticDirectory(url, invokers, routers, logger);
}
