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
import type { Cluster, ClusterContext, Directory } from "../contracts.js";
import { GroupDirectory, groupOf } from "../directory/group-directory.js";
import { isNoMergerSetting, MERGER_KEY, type Merger } from "../merger/merger.js";
import { mergeWithMethod, resolveMerger } from "../merger/merger-selection.js";
import { withMock } from "../mock/mock-cluster.js";
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
 * semantics of Java's `MergeableClusterInvoker` over one cluster invoker per group (Java's
 * RegistryDirectory joins each group's providers into its own cluster):
 *
 * - Each group present in the directory's list is its own cluster: the reference's `cluster`
 *   (failover unless set; never mergeable again) with the mock wrapper, over a live view of that
 *   group's providers. So failover retries within a group, on that group's providers.
 * - No `merger` on the method (or `merger=false`): only one group is called, the first available
 *   in list order; when its cluster reports "no provider available" the next one is tried. If
 *   none is available the first is called anyway.
 * - Otherwise every group is called in parallel, once each.
 * - A failing group is reported through `ClusterContext.warn` and left out of the merge (Java
 *   logs it too). One answering group gives its value unmerged; a `void` method gives undefined.
 *   If every group fails, the first group's error is thrown as is (Java would return null: this
 *   is a deliberate difference, so a total failure is never silent); the others are warned.
 * - `merger=true|default` picks the merger by the return type, `merger=<name>` a registered one,
 *   `merger=.method` calls that method of the first result with each other result.
 * - Results are merged in the directory's group order (Java's order is a hash map's). The merged
 *   result carries no provider attachments, as in Java.
 * - Deliberate difference: Java wraps groups only when more than one group is present, so the
 *   providers of a lone group are called directly (each one, with a merger; without failover).
 *   Here a lone group is a cluster too, so it fails over like any other.
 */
export function createMergeableCluster(options: {
  readonly mergers: ExtensionPoint<Merger>;
  readonly clusters: ExtensionPoint<Cluster>;
}): Cluster {
  return (directory, context) => new MergeableClusterInvoker(directory, context, options);
}

export class MergeableClusterInvoker extends AbstractClusterInvoker {
  readonly #mergers: ExtensionPoint<Merger>;
  readonly #groupCluster: Cluster;
  /** One cluster invoker per group seen, kept for the reference's life (groups are few). */
  readonly #groups = new Map<string, Invoker>();

  constructor(
    directory: Directory,
    context: ClusterContext,
    options: { readonly mergers: ExtensionPoint<Merger>; readonly clusters: ExtensionPoint<Cluster> },
  ) {
    super(directory, context);
    this.#mergers = options.mergers;
    const configured = directory.url.get("cluster");
    const name =
      configured === undefined || configured === "" || configured === MERGEABLE_CLUSTER
        ? DEFAULT_CLUSTER
        : configured;
    this.#groupCluster = withMock(options.clusters.get(name));
  }

  override async destroy(): Promise<void> {
    const groups = [...this.#groups.values()];
    this.#groups.clear();
    await Promise.allSettled(groups.map((g) => g.destroy()));
    await super.destroy();
  }

  protected async doInvoke(inv: Invocation, invokers: readonly Invoker[]): Promise<RpcResult> {
    if (invokers.length === 0) throw this.noProvider(inv);
    const groups = this.#groupsOf(invokers);
    const setting = this.url.methodGet(inv.method, MERGER_KEY);
    if (setting === undefined || isNoMergerSetting(setting)) return this.#invokeOneGroup(inv, groups);

    const settled = await Promise.allSettled(groups.map((g) => g.cluster.invoke(inv)));
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

  async #invokeOneGroup(inv: Invocation, groups: readonly GroupCluster[]): Promise<RpcResult> {
    for (const { cluster } of groups) {
      if (!cluster.isAvailable()) continue;
      try {
        return await cluster.invoke(inv);
      } catch (error) {
        if (!isNoProviderError(error)) throw error;
      }
    }
    return (groups[0] as GroupCluster).cluster.invoke(inv);
  }

  /** The cluster of each group among `invokers`, in first-appearance order. */
  #groupsOf(invokers: readonly Invoker[]): GroupCluster[] {
    const out: GroupCluster[] = [];
    const seen = new Set<string>();
    for (const invoker of invokers) {
      const group = groupOf(invoker);
      if (seen.has(group)) continue;
      seen.add(group);
      let cluster = this.#groups.get(group);
      if (cluster === undefined) {
        cluster = this.#groupCluster(new GroupDirectory(this.directory, group), this.context);
        this.#groups.set(group, cluster);
      }
      out.push({ key: invoker.url.serviceKey, cluster });
    }
    return out;
  }

  #warnFailed(group: string, inv: Invocation, error: unknown): void {
    const kind = error instanceof BizError ? "threw" : "failed";
    this.context.warn(
      `mergeable: ${describeGroup(group)} of ${this.url.serviceInterface} method ${inv.method} ${kind} and was left out of the merged result`,
      error,
    );
  }
}

interface GroupCluster {
  /** The group's service key, `group/interface:version`. */
  readonly key: string;
  readonly cluster: Invoker;
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
