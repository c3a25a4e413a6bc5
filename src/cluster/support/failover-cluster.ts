import {
  Code,
  DEFAULT_RETRIES,
  type Invocation,
  type Invoker,
  isRetryable,
  RpcError,
  type RpcResult,
} from "../../core/index.js";
import type { Cluster, LoadBalance } from "../contracts.js";
import { AbstractClusterInvoker, type AttemptRecovery } from "./cluster-invoker.js";

/**
 * `failover` (the default): on any failure that is not the provider's business answer (network,
 * timeout, busy, a provider's error status such as SERVICE_NOT_FOUND; see `isRetryable`) try
 * another provider, up to `retries` extra attempts (per method; default 2). Tried providers are
 * avoided, the list is re-read between attempts, and each attempt has its own timeout (an overall
 * deadline, when the call has one, bounds them all).
 * Business errors and canceled calls return at once.
 */
export class FailoverClusterInvoker extends AbstractClusterInvoker {
  readonly #attemptsByMethod = new Map<string, number>();

  /**
   * The first attempt's promise is returned as it is, no async frame nor `catch`: a call that
   * succeeds at once (nearly all of them) pays no retry machinery; `#retry` runs only after a
   * failure, as the attempt's recovery, from the state the attempt kept (no closure per call).
   */
  protected doInvoke(inv: Invocation, invokers: readonly Invoker[], lb: LoadBalance): Promise<RpcResult> {
    return this.attempt(this.select(lb, inv, invokers), inv, this.#retryFirst, invokers, lb);
  }

  readonly #retryFirst: AttemptRecovery = (error, first) =>
    this.#retry(
      first.inv,
      first.lb,
      this.#attempts(first.inv.method),
      [first.invoker],
      first.invokers,
      error,
    );

  async #retry(
    inv: Invocation,
    lb: LoadBalance,
    attempts: number,
    tried: Invoker[],
    firstCandidates: readonly Invoker[],
    firstError: unknown,
  ): Promise<RpcResult> {
    let candidates = firstCandidates;
    let lastError = firstError;
    for (let i = 1; ; i++) {
      if (!isRetryable(lastError)) throw lastError;
      if (i >= attempts) break;
      if (inv.signal.aborted || (inv.deadline !== undefined && Date.now() >= inv.deadline)) break;
      candidates = this.list(inv);
      if (candidates.length === 0) throw this.noProvider(inv, tried, lastError);
      const invoker = this.select(lb, inv, candidates, tried);
      tried.push(invoker);
      try {
        return await this.attempt(invoker, inv);
      } catch (error) {
        lastError = error;
      }
    }
    const addresses = [...new Set(tried.map((t) => t.url.address))];
    const last = lastError instanceof RpcError ? lastError : RpcError.from(lastError, Code.Unavailable);
    throw new RpcError(
      `failed to invoke ${this.url.serviceKey} method ${inv.method}: tried ${tried.length} time(s) on providers [${addresses.join(", ")}] (${addresses.length}/${candidates.length}); last error: ${last.rawMessage}. Check the providers, or raise the reference option retries (Dubbo key retries)`,
      last.code,
      { cause: lastError },
    );
  }

  #attempts(method: string): number {
    let attempts = this.#attemptsByMethod.get(method);
    if (attempts === undefined) {
      attempts = Math.max(1, Math.trunc(this.url.methodNumber(method, "retries", DEFAULT_RETRIES)) + 1);
      this.#attemptsByMethod.set(method, attempts);
    }
    return attempts;
  }
}

export const failoverCluster: Cluster = (directory, context) =>
  new FailoverClusterInvoker(directory, context);
