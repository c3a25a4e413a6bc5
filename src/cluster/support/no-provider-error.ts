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
    case "routerFailed":
      return `not routed: router "${reason.router}" failed (${reason.detail})`;
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

/** Up to this many providers are listed one by one; beyond, the error summarises. */
const LISTED_PROVIDERS = 8;
/** A summary shows this many reasons (most frequent first), each with this many example addresses. */
const SUMMARY_REASONS = 6;
const EXAMPLES_PER_REASON = 3;

/**
 * `address (label)` for each item while there are few; beyond {@link LISTED_PROVIDERS}, one line
 * per label with its count and a few addresses, so the message stays small at any scale.
 */
function listOrSummarise<T>(
  items: readonly T[],
  address: (item: T) => string,
  label: (item: T) => string,
): string {
  if (items.length <= LISTED_PROVIDERS) return items.map((i) => `${address(i)} (${label(i)})`).join("; ");
  const byLabel = new Map<string, string[]>();
  for (const item of items) {
    const key = label(item);
    const addresses = byLabel.get(key);
    if (addresses === undefined) byLabel.set(key, [address(item)]);
    else addresses.push(address(item));
  }
  const ranked = [...byLabel].sort((a, b) => b[1].length - a[1].length);
  const shown = ranked.slice(0, SUMMARY_REASONS).map(([key, addresses]) => {
    const examples = addresses.slice(0, EXAMPLES_PER_REASON).join(", ");
    const more = addresses.length > EXAMPLES_PER_REASON ? ", …" : "";
    return `${addresses.length} ${key} (e.g. ${examples}${more})`;
  });
  const rest = ranked.slice(SUMMARY_REASONS);
  if (rest.length > 0) {
    const count = rest.reduce((n, [, addresses]) => n + addresses.length, 0);
    shown.push(`${count} more in ${rest.length} other kind(s)`);
  }
  return shown.join("; ");
}

const describeSetting = (value: string | undefined): string => value ?? "(none)";

function groupAndVersion(group: string | undefined, version: string | undefined): string {
  return `group=${describeSetting(group)}, version=${describeSetting(version)}`;
}

/** The detail when the directory knows no provider: the near misses, or what to check. */
function nothingKnown(directory: Directory): string {
  const nearMisses = directory.nearMisses?.() ?? [];
  if (nearMisses.length === 0) {
    return "the directory knows no provider: check that providers are started and registered with the same interface, group and version (reference options group and version)";
  }
  const wanted = groupAndVersion(directory.url.get("group"), directory.url.get("version"));
  const listed = listOrSummarise(
    nearMisses,
    (n) => n.address,
    (n) => groupAndVersion(n.group, n.version),
  );
  return (
    `no provider matches ${wanted}, but ${nearMisses.length} provider(s) of ${directory.url.serviceInterface} are registered with another group or version: ${listed}. ` +
    `Set the reference options group and version (Dubbo keys group, version) to the provider's, or "*" to accept any`
  );
}

/**
 * The error for "nothing left to call": it names the service key and method, lists every provider
 * the directory knew with its reasons (summarised beyond a few), or, when it knew none, the
 * providers of the same interface registered under another group or version, and says what to
 * change. Code Unavailable.
 */
export function noProviderError(
  directory: Directory,
  inv: Invocation,
  tried: readonly Invoker[] = [],
  availableCheck = true,
  cause?: unknown,
): RpcError {
  const providers = explainExclusions(directory, inv, tried, availableCheck);
  const head = `no provider available for ${directory.url.serviceKey} method ${inv.method}`;
  let detail: string;
  if (providers.length === 0) {
    detail = nothingKnown(directory);
  } else {
    const listed = listOrSummarise(
      providers,
      (p) => p.address,
      (p) => (p.reasons.length === 0 ? "candidate" : p.reasons.map(describeReason).join(", ")),
    );
    detail = `${providers.length} known: ${listed}. Check the providers' health and the router rules (the registry's routers category)`;
  }
  return new RpcError(`${head}: ${detail}`, Code.Unavailable, cause === undefined ? {} : { cause });
}
