import type { InvokeFn } from "../rpc/filter.js";
import type { Invocation } from "../rpc/invocation.js";
import { type RpcResult, resultOf } from "../rpc/result.js";
import { createProviderContext, currentRpcContext, type RpcContext, runInRpcContext } from "./rpc-context.js";

/**
 * `result` with the attachments the provider's code set with `setResponseAttachment` in `ctx` (by
 * default the current context) added; most calls set none and get `result` itself.
 */
export function withResponseAttachments(result: RpcResult, ctx = currentRpcContext()): RpcResult {
  if (ctx === undefined || !ctx.hasResponseAttachments()) return result;
  return resultOf(result.value, { ...result.attachments, ...ctx.responseAttachments });
}

function callAndAttachResponse(ctx: RpcContext, next: InvokeFn, inv: Invocation): Promise<RpcResult> {
  let promise: Promise<RpcResult>;
  try {
    promise = next(inv);
  } catch (error) {
    return Promise.reject(error);
  }
  // One step fewer than an async function.
  return promise.then((result) => withResponseAttachments(result, ctx));
}

/**
 * Runs one provider call inside its own provider `RpcContext` and adds the attachments the provider's
 * code set with `setResponseAttachment` to the result. A synchronous throw in `next` becomes a rejection.
 */
export function invokeInProviderContext(
  inv: Invocation,
  localAddress: string | undefined,
  next: InvokeFn,
): Promise<RpcResult> {
  const ctx = createProviderContext(inv, localAddress);
  return runInRpcContext(ctx, callAndAttachResponse, ctx, next, inv);
}

/**
 * Runs `next` inside a new provider `RpcContext` for `inv` and returns what it returns; the caller
 * adds the response attachments with {@link withResponseAttachments} in a reaction `next` itself
 * registers (reactions keep the context they were registered in).
 */
export function enterProviderContext(
  inv: Invocation,
  localAddress: string | undefined,
  next: InvokeFn,
): Promise<RpcResult> {
  return runInRpcContext(createProviderContext(inv, localAddress), next, inv);
}

/** Whether the code running now is already inside the provider context of this method of this service. */
export function isInProviderContextOf(inv: Invocation): boolean {
  const ctx = currentRpcContext();
  return (
    ctx !== undefined &&
    ctx.side === "provider" &&
    ctx.invocation !== undefined &&
    ctx.invocation.method === inv.method &&
    ctx.invocation.service === inv.service
  );
}
