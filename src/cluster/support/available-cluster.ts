import type { Invocation, Invoker, RpcResult } from "../../core/index.js";
import type { Cluster } from "../contracts.js";
import { AbstractClusterInvoker } from "./cluster-invoker.js";
import { noProviderError } from "./no-provider-error.js";

/** `available`: calls the first available provider in list order, without load balancing. */
export class AvailableClusterInvoker extends AbstractClusterInvoker {
  protected async doInvoke(inv: Invocation, invokers: readonly Invoker[]): Promise<RpcResult> {
    for (const invoker of invokers) {
      if (invoker.isAvailable()) return this.attempt(invoker, inv);
    }
    // Always explain unavailability here: being available is this strategy's only criterion.
    throw noProviderError(this.directory, inv, [], true);
  }
}

export const availableCluster: Cluster = (directory, context) =>
  new AvailableClusterInvoker(directory, context);
