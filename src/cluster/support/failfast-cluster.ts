import { BizError, type Invocation, type Invoker, RpcError, type RpcResult } from "../../core/index.js";
import type { Cluster, LoadBalance } from "../contracts.js";
import { AbstractClusterInvoker } from "./cluster-invoker.js";

/** `failfast`: one attempt; any failure is reported at once (for non-idempotent writes). */
export class FailfastClusterInvoker extends AbstractClusterInvoker {
  protected async doInvoke(
    inv: Invocation,
    invokers: readonly Invoker[],
    lb: LoadBalance,
  ): Promise<RpcResult> {
    const invoker = this.select(lb, inv, invokers);
    try {
      return await this.attempt(invoker, inv);
    } catch (error) {
      if (error instanceof BizError) throw error;
      const cause = RpcError.from(error);
      throw new RpcError(
        `failfast call to ${this.url.serviceKey} method ${inv.method} on ${invoker.url.address} failed: ${cause.rawMessage} (cluster=failfast never retries; use failover for idempotent methods)`,
        cause.code,
        { cause: error },
      );
    }
  }
}

export const failfastCluster: Cluster = (directory, context) =>
  new FailfastClusterInvoker(directory, context);
