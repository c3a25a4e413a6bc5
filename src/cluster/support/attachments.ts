import {
  type Attachments,
  currentRpcContext,
  deriveInvocation,
  hasAnyAttachment,
  type Invocation,
} from "../../core/index.js";
import type { ClusterContext } from "../contracts.js";

/**
 * Invocation attachment naming one provider, `host:port`, for this call only (SOFARPC's pinpoint
 * target): load balancing is bypassed, but the address must be a provider the directory knows.
 * It never reaches the provider.
 */
export const PINPOINT_KEY = "pinpoint";

/**
 * Binds the caller's context attachments into the invocation before selection, as Java's
 * AbstractClusterInvoker does: from `ClusterContext.contextAttachments` when the application
 * supplies it, else from the current `RpcContext`. What the invocation already carries wins.
 * Returns the same invocation when there is nothing to add, as for a stub's call (the stub binds
 * the RpcContext's attachments as it builds the invocation).
 */
export function bindContextAttachments(inv: Invocation, context: ClusterContext): Invocation {
  const fromContext =
    context.contextAttachments === undefined ? rpcContextAttachments() : context.contextAttachments();
  if (fromContext === undefined || !hasAnyAttachment(fromContext)) return inv;
  // The usual call carries no attachment of its own: the context's frozen snapshot serves as is.
  if (!hasAnyAttachment(inv.attachments)) return deriveInvocation(inv, { attachments: fromContext });
  let merged: Record<string, unknown> | undefined;
  for (const key in fromContext) {
    if (key in inv.attachments) continue;
    merged ??= { ...inv.attachments };
    merged[key] = fromContext[key];
  }
  return merged === undefined ? inv : deriveInvocation(inv, { attachments: merged });
}

/** The pinpoint address of a call, when it names one. */
export function pinpointOf(inv: Invocation): string | undefined {
  const target = inv.attachments[PINPOINT_KEY];
  return typeof target === "string" && target !== "" ? target : undefined;
}

/** The attachments a provider should see: everything but the cluster's own routing hints. */
export function forwardedAttachments(attachments: Attachments): Attachments {
  if (!(PINPOINT_KEY in attachments)) return attachments;
  const { [PINPOINT_KEY]: _, ...rest } = attachments;
  return rest;
}

function rpcContextAttachments(): Attachments | undefined {
  const ctx = currentRpcContext();
  return ctx?.hasAttachments() ? ctx.attachments : undefined;
}
