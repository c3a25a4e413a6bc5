// The RPC context (attachments both ways, addresses, the current invocation) on AsyncLocalStorage,
// and the signal/deadline helpers every call uses.
export { CallControl } from "./call-control.js";
export { DeadlineTimers, type DeadlineTimersOptions } from "./deadline-timers.js";
export { invokeInProviderContext, isInProviderContextOf } from "./provider-scope.js";
export {
  type CompletedCall,
  createProviderContext,
  currentRpcContext,
  FRAMEWORK_ATTACHMENT_KEYS,
  getRpcContext,
  RpcContext,
  type RpcSide,
  runInRpcContext,
  runWithRpcContext,
} from "./rpc-context.js";
export {
  CALL_COMPLETED,
  type CallSignal,
  createCallSignal,
  createDeadlineSignal,
  createLinkedAbortController,
  type DeadlineSignal,
  raceSignal,
} from "./signals.js";
