import {
  BizError,
  Code,
  DEFAULT_CLUSTER,
  type ExtensionPoint,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
  resultOf,
  splitList,
} from "../../core/index.js";
import type { Cluster, ClusterContext, Directory, LoadBalance } from "../contracts.js";
import { isNoMergerSetting, MERGER_KEY, type Merger } from "../merger/merger.js";
import { mergeWithMethod, resolveMerger } from "../merger/merger-selection.js";
import { AbstractClusterInvoker } from "./cluster-invoker.js";

/** The cluster name a multi-group reference uses. */
export const MERGEABLE_CLUSTER = "mergeable";

/**
 * The strategy for a reference's `group`, as Java's `RegistryProtocol.refer` decides: `*` or a
 * list of groups (`a,b`) selects `mergeable` whatever `cluster` says; otherwise the configured
 * cluster, else failover.
 */
export function clusterNameForGroup(group: string | undefined, configured: string | undefined): string {
  const trimmed = group?.trim() ?? "";
  if (trimmed === "*" || splitList(trimmed).length > 1) return MERGEABLE_CLUSTER;
  return configured === undefined || configured === "" ? DEFAULT_CLUSTER : configured;
}

/**
 * `mergeable`: calls every group of a multi-group reference and merges the results, with the
 * semantics of Java's `MergeableClusterInvoker`:
 *
 * - No `merger` on the method (or `merger=false`): only one group is called, the first available
 *   provider in list order; when it reports "no provider available" (its group is empty after
 *   routing) the next one is tried. If none is available the first is called anyway.
 * - Otherwise every group is called in parallel, one call per group: each entry of the directory's
 *   list is called, except that entries of one group (same `group/interface:version`) share one
 *   call to a provider the balancer picks among them (Java calls them all and keeps one result per
 *   group). The registry directory normally lists one cluster invoker per group, so failover
 *   happens inside a group.
 * - A failing group is reported through `ClusterContext.warn` and left out of the merge (Java
 *   logs it too). One answering group gives its value unmerged; a `void` method gives undefined.
 *   If every group fails, the first group's error is thrown as is (Java would return null: this
 *   is a deliberate difference, so a total failure is never silent); the others are warned.
 * - `merger=true|default` picks the merger by the return type, `merger=<name>` a registered one,
 *   `merger=.method` calls that method of the first result with each other result.
 * - Results are merged in the directory's group order (Java's order is a hash map's). The merged
 *   result carries no provider attachments, as in Java.
 */
export function createMergeableCluster(options: { readonly mergers: ExtensionPoint<Merger> }): Cluster {
  return (directory, context) => new MergeableClusterInvoker(directory, context, options.mergers);
}

export class MergeableClusterInvoker extends AbstractClusterInvoker {
  readonly #mergers: ExtensionPoint<Merger>;

  constructor(directory: Directory, context: ClusterContext, mergers: ExtensionPoint<Merger>) {
    super(directory, context);
    this.#mergers = mergers;
  }

  protected async doInvoke(
    inv: Invocation,
    invokers: readonly Invoker[],
    lb: LoadBalance,
  ): Promise<RpcResult> {
    if (invokers.length === 0) throw this.noProvider(inv);
    const setting = this.url.methodGet(inv.method, MERGER_KEY);
    if (setting === undefined || isNoMergerSetting(setting)) return this.#invokeOneGroup(inv, invokers);

    const groups = this.#onePerGroup(invokers, lb);
    const settled = await Promise.allSettled(groups.map((g) => this.#callGroup(g, inv)));
    const values: unknown[] = [];
    const failures: Array<{ readonly group: string; readonly error: unknown }> = [];
    settled.forEach((outcome, i) => {
      const group = groups[i]?.key ?? "";
      if (outcome.status === "fulfilled") values.push(outcome.value.value);
      else failures.push({ group, error: outcome.reason });
    });
    const site = { serviceKey: this.url.serviceKey, method: inv.method };
    if (values.length === 0) {
      for (const failure of failures.slice(1)) this.#warnFailed(failure.group, inv, failure.error);
      throw failures[0]?.error ?? this.noProvider(inv);
    }
    for (const failure of failures) this.#warnFailed(failure.group, inv, failure.error);
    if (values.length === 1) return resultOf(values[0]);
    if (inv.returnType?.kind === "void") return resultOf(undefined);
    if (setting.startsWith(".")) return resultOf(mergeWithMethod(setting.slice(1), values, site));
    const merger = resolveMerger(this.#mergers, setting, inv.returnType, values, site);
    try {
      return resultOf(merger.merge(values));
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : String(cause);
      throw new RpcError(
        `cannot merge the results of ${site.serviceKey} method ${inv.method} with merger=${setting}: ${detail}`,
        Code.Internal,
        { cause },
      );
    }
  }

  async #invokeOneGroup(inv: Invocation, invokers: readonly Invoker[]): Promise<RpcResult> {
    for (const invoker of invokers) {
      if (!invoker.isAvailable()) continue;
      try {
        return await this.attempt(invoker, inv);
      } catch (error) {
        if (!isNoProviderError(error)) throw error;
      }
    }
    return this.attempt(invokers[0] as Invoker, inv);
  }

  /** One entry per group key, in first-appearance order. */
  #onePerGroup(invokers: readonly Invoker[], lb: LoadBalance): GroupCall[] {
    const byKey = new Map<string, Invoker[]>();
    for (const invoker of invokers) {
      const key = invoker.url.serviceKey;
      const members = byKey.get(key);
      if (members === undefined) byKey.set(key, [invoker]);
      else members.push(invoker);
    }
    return [...byKey].map(([key, members]) => ({ key, members, lb }));
  }

  async #callGroup(group: GroupCall, inv: Invocation): Promise<RpcResult> {
    const target =
      group.members.length === 1 ? (group.members[0] as Invoker) : this.select(group.lb, inv, group.members);
    return this.attempt(target, inv);
  }

  #warnFailed(group: string, inv: Invocation, error: unknown): void {
    const kind = error instanceof BizError ? "threw" : "failed";
    this.context.warn(
      `mergeable: ${describeGroup(group)} of ${this.url.serviceInterface} method ${inv.method} ${kind} and was left out of the merged result`,
      error,
    );
  }
}

interface GroupCall {
  readonly key: string;
  readonly members: readonly Invoker[];
  readonly lb: LoadBalance;
}

/** Java's `getGroupDescFromServiceKey`: `group [ a ]` for `a/com.foo.Bar:1.0`. */
function describeGroup(serviceKey: string): string {
  const slash = serviceKey.indexOf("/");
  return slash > 0 ? `group [ ${serviceKey.slice(0, slash)} ]` : serviceKey;
}

/** The no-provider error of a group's own cluster invoker (Java's NO_INVOKER_AVAILABLE_AFTER_FILTER). */
function isNoProviderError(error: unknown): boolean {
  return (
    error instanceof RpcError &&
    error.code === Code.Unavailable &&
    error.rawMessage.startsWith("no provider available for ")
  );
}
