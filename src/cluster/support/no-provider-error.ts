import { Code, type Invocation, type Invoker, RpcError } from "../../core/index.js";
import type { Directory, ExclusionReason } from "../contracts.js";

/** One known provider and every reason it could not serve the call. */
export interface ProviderExclusion {
  readonly address: string;
  readonly reasons: readonly ExclusionReason[];
}

export function describeReason(reason: ExclusionReason): string {
  switch (reason.kind) {
    case "router":
      return `excluded by router "${reason.router}"`;
    case "unavailable":
      return "unavailable (not connected)";
    case "tried":
      return "already tried for this call";
    case "disabled":
      return reason.detail === undefined ? "disabled" : `disabled (${reason.detail})`;
    case "mismatch":
      return `mismatch (${reason.detail})`;
  }
}

/**
 * Every provider the directory knows and why each one is not usable for this call: the routers'
 * and directory's own reasons, then `tried` and `unavailable` as the select step saw them.
 */
export function explainExclusions(
  directory: Directory,
  inv: Invocation,
  tried: readonly Invoker[],
  availableCheck: boolean,
): ProviderExclusion[] {
  const explained = directory.explain?.(inv) ?? directory.excluded();
  const byAddress = new Map<string, ExclusionReason[]>();
  const add = (address: string, reason: ExclusionReason): void => {
    const reasons = byAddress.get(address);
    if (reasons === undefined) byAddress.set(address, [reason]);
    else if (!reasons.some((r) => r.kind === reason.kind)) reasons.push(reason);
  };
  for (const invoker of directory.all()) {
    const address = invoker.url.address;
    const routed = explained.get(address);
    if (routed !== undefined) add(address, routed);
    if (tried.includes(invoker)) add(address, { kind: "tried" });
    if (availableCheck && !invoker.isAvailable()) add(address, { kind: "unavailable" });
    if (!byAddress.has(address)) byAddress.set(address, []);
  }
  for (const [address, reason] of explained) add(address, reason);
  return [...byAddress].map(([address, reasons]) => ({ address, reasons }));
}

/**
 * The error for "nothing left to call": it names the service key and method, lists every provider
 * the directory knew with its reasons, and says what to check. Code Unavailable.
 */
export function noProviderError(
  directory: Directory,
  inv: Invocation,
  tried: readonly Invoker[] = [],
  availableCheck = true,
  cause?: unknown,
): RpcError {
  const providers = explainExclusions(directory, inv, tried, availableCheck);
  const serviceKey = directory.url.serviceKey;
  const head = `no provider available for ${serviceKey} method ${inv.method}`;
  let detail: string;
  if (providers.length === 0) {
    detail =
      "the directory knows no provider: check that providers are started and registered with the same group and version";
  } else {
    const listed = providers
      .map(({ address, reasons }) =>
        reasons.length === 0
          ? `${address} (candidate)`
          : `${address} (${reasons.map(describeReason).join(", ")})`,
      )
      .join("; ");
    detail = `${providers.length} known: ${listed}. Check the providers' health, the router rules, and cluster.availablecheck`;
  }
  return new RpcError(`${head}: ${detail}`, Code.Unavailable, cause === undefined ? {} : { cause });
}
