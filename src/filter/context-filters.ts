import {
  currentRpcContext,
  deriveInvocation,
  enterProviderContext,
  type Filter,
  type Invocation,
  type RpcContext,
  withResponseAttachments,
} from "../core/index.js";
import { listenerFilter } from "./call-listener.js";

/**
 * Whether the invocation already carries every key of the context's attachments (a cluster binds
 * them before selection), so merging them again would change nothing.
 */
function carriesAll(inv: Invocation, ctx: RpcContext): boolean {
  if (!ctx.hasAttachments()) return true;
  const own = inv.attachments;
  for (const key in ctx.attachments) if (!(key in own)) return false;
  return true;
}

/**
 * Consumer side (Java's ConsumerContextFilter, a listener as there): the attachments of the current
 * RpcContext travel with the call (the invocation's own attachments win on a clash, so framework
 * keys stay intact), and when the call completes the context records what the provider sent back.
 * Outside any context the call passes through untouched. The listener runs in the promise reaction
 * registered inside the call's context, so `currentRpcContext()` there is the caller's.
 */
export const consumerContextFilter: Filter = listenerFilter((invoker) => {
  const remoteAddress = invoker.url.address;
  return {
    around(inv, proceed) {
      const ctx = currentRpcContext();
      if (ctx === undefined || carriesAll(inv, ctx)) return proceed(inv);
      return proceed(deriveInvocation(inv, { attachments: { ...ctx.attachments, ...inv.attachments } }));
    },
    onResponse(result, call) {
      currentRpcContext()?.recordCall({ invocation: call, remoteAddress, attachments: result.attachments });
      return result;
    },
  };
});

/**
 * Provider side (Java's ContextFilter, a listener as there): the rest of the chain and the user's
 * function run inside a provider RpcContext showing the request's attachments (framework keys
 * removed), the invocation, the caller's address and this provider's address; attachments the user
 * sets with `setResponseAttachment` are added to the result.
 */
export const providerContextFilter: Filter = listenerFilter((invoker) => {
  const localAddress = invoker.url.address;
  return {
    around: (inv, proceed) => enterProviderContext(inv, localAddress, proceed),
    onResponse: (result) => withResponseAttachments(result),
  };
});
