import {
  BizError,
  Code,
  DEFAULT_FORKS,
  DEFAULT_TIMEOUT_MS,
  deriveInvocation,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
} from "../../core/index.js";
import type { Cluster, LoadBalance } from "../contracts.js";
import { AbstractClusterInvoker } from "./cluster-invoker.js";

/**
 * `forking`: calls `forks` providers (default 2; all when `forks` ≤ 0 or ≥ their number) in
 * parallel and returns the first answer (a business error is an answer too). It fails only when
 * every fork failed, or when `timeout` (or the call's deadline, if sooner) passes first. Once it
 * settles, the other forks' waits are aborted. For reads that must be fast, at the cost of load.
 */
export class ForkingClusterInvoker extends AbstractClusterInvoker {
  protected async doInvoke(
    inv: Invocation,
    invokers: readonly Invoker[],
    lb: LoadBalance,
  ): Promise<RpcResult> {
    const forks = this.url.methodNumber(inv.method, "forks", DEFAULT_FORKS);
    let selected: Invoker[];
    if (forks <= 0 || forks >= invokers.length) {
      selected = [...invokers];
      if (selected.length === 0) throw this.noProvider(inv);
    } else {
      selected = [];
      for (let i = 0; i < forks; i++) {
        const invoker = this.select(lb, inv, invokers, selected);
        if (!selected.includes(invoker)) selected.push(invoker);
      }
    }
    const timeoutMs = this.url.methodNumber(inv.method, "timeout", DEFAULT_TIMEOUT_MS);
    const deadline = Math.min(Date.now() + timeoutMs, inv.deadline ?? Number.POSITIVE_INFINITY);
    const losers = new AbortController();
    const signal = AbortSignal.any([inv.signal, losers.signal]);
    const forkInv = deriveInvocation(inv, { signal, deadline });
    const budgetMs = Math.max(0, deadline - Date.now());
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<RpcResult>((resolve, reject) => {
        let failures = 0;
        let lastError: unknown;
        onAbort = (): void => reject(RpcError.from(inv.signal.reason, Code.Canceled));
        inv.signal.addEventListener("abort", onAbort, { once: true });
        timer = setTimeout(
          () =>
            reject(
              new RpcError(
                `forking call to ${this.url.serviceKey} method ${inv.method} got no answer from [${selected.map((s) => s.url.address).join(", ")}] within ${budgetMs} ms (timeout=${timeoutMs} or the call's deadline)`,
                Code.DeadlineExceeded,
                { cause: lastError },
              ),
            ),
          budgetMs,
        );
        for (const invoker of selected) {
          this.attempt(invoker, forkInv).then(resolve, (error: unknown) => {
            if (error instanceof BizError) {
              reject(error);
              return;
            }
            lastError = error;
            if (++failures >= selected.length) {
              const last = RpcError.from(error, Code.Unavailable);
              reject(
                new RpcError(
                  `forking call to ${this.url.serviceKey} method ${inv.method} failed on all ${selected.length} providers; last error: ${last.rawMessage}`,
                  last.code,
                  { cause: error },
                ),
              );
            }
          });
        }
      });
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) inv.signal.removeEventListener("abort", onAbort);
      losers.abort(new RpcError(`forking call to ${this.url.serviceKey} settled`, Code.Canceled));
    }
  }
}

export const forkingCluster: Cluster = (directory, context) => new ForkingClusterInvoker(directory, context);
