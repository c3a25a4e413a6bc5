import { type Invocation, type Invoker, isRetryable, type RpcResult, resultOf } from "../../core/index.js";
import type { Cluster, LoadBalance } from "../contracts.js";
import { AbstractClusterInvoker } from "./cluster-invoker.js";

/**
 * `failsafe`: a framework failure (no provider, network, timeout) is logged as a warning and the
 * call returns an empty result (null), for calls whose outcome does not matter, such as audit logs.
 * A provider's business error is its answer and still reaches the caller.
 */
export class FailsafeClusterInvoker extends AbstractClusterInvoker {
  protected async doInvoke(
    inv: Invocation,
    invokers: readonly Invoker[],
    lb: LoadBalance,
  ): Promise<RpcResult> {
    try {
      const invoker = this.select(lb, inv, invokers);
      return await this.attempt(invoker, inv);
    } catch (error) {
      // A business answer, or the caller's own cancel: neither is a failure to swallow.
      if (!isRetryable(error)) throw error;
      this.context.warn(
        `failsafe ignored a failure of ${this.url.serviceKey} method ${inv.method}; returning null`,
        error,
      );
      return resultOf(null);
    }
  }
}

export const failsafeCluster: Cluster = (directory, context) =>
  new FailsafeClusterInvoker(directory, context);
