import type { Attachments } from "./invocation.js";

/**
 * What a successful call returns. A failed call rejects instead: with an `RpcError` for the
 * framework's failures, with a `BizError` for an exception of the provider's own code.
 */
export interface RpcResult {
  readonly value: unknown;
  /** Attachments the provider sent back (Dubbo ≥ 2.0.2). */
  readonly attachments: Attachments;
}

const NO_ATTACHMENTS: Attachments = Object.freeze({});

export function resultOf(value: unknown, attachments: Attachments = NO_ATTACHMENTS): RpcResult {
  return { value, attachments };
}
