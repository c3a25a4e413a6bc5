import {
  BizError,
  DEFAULT_BROADCAST_FAIL_PERCENT,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
} from "../../core/index.js";
import type { Cluster } from "../contracts.js";
import { AbstractClusterInvoker } from "./cluster-invoker.js";

/**
 * `broadcast`: calls every provider one after another (for cache refreshes and the like) and
 * fails if any call failed, with the last failure. `broadcast.fail.percent` (0–100, default 100)
 * stops calling the rest once that share of providers has failed.
 */
export class BroadcastClusterInvoker extends AbstractClusterInvoker {
  protected async doInvoke(inv: Invocation, invokers: readonly Invoker[]): Promise<RpcResult> {
    if (invokers.length === 0) throw this.noProvider(inv);
    let percent = this.url.number("broadcast.fail.percent", DEFAULT_BROADCAST_FAIL_PERCENT);
    if (percent < 0 || percent > 100) {
      this.context.warn(
        `broadcast.fail.percent=${percent} on ${this.url.serviceKey} is outside 0-100; using ${DEFAULT_BROADCAST_FAIL_PERCENT}`,
      );
      percent = DEFAULT_BROADCAST_FAIL_PERCENT;
    }
    const failThreshold = Math.trunc((invokers.length * percent) / 100);
    let failures = 0;
    let lastError: unknown;
    let result: RpcResult | undefined;
    for (const invoker of invokers) {
      try {
        result = await this.attempt(invoker, inv);
      } catch (error) {
        lastError = error;
        this.context.warn(
          `broadcast: ${this.url.serviceKey} method ${inv.method} failed on ${invoker.url.address}`,
          error,
        );
        if (failures === failThreshold) break;
        failures++;
      }
    }
    if (lastError !== undefined) {
      if (lastError instanceof BizError || lastError instanceof RpcError) throw lastError;
      throw RpcError.from(lastError);
    }
    return result!;
  }
}

export const broadcastCluster: Cluster = (directory, context) =>
  new BroadcastClusterInvoker(directory, context);
