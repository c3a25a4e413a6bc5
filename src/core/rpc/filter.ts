import type { Invocation } from "./invocation.js";
import type { Invoker } from "./invoker.js";
import type { RpcResult } from "./result.js";

export type InvokeFn = (inv: Invocation) => Promise<RpcResult>;

/**
 * A filter is an onion layer: it receives the next step and returns its own. Work before
 * `await next(inv)` is Java's `invoke`, work after is `onResponse`, a `catch` is `onError`.
 * The invoker is the one being wrapped (its URL carries the settings).
 */
export type Filter = (next: InvokeFn, invoker: Invoker) => InvokeFn;
