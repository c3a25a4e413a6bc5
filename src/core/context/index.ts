// The RPC context (attachments both ways, addresses, the current invocation) on AsyncLocalStorage,
// the cancellation helpers, the attempt timeout and the deadline timers that enforce it.
export {
  AttemptTimeouts,
  attemptTimeoutError,
  attemptTimeoutMs,
  settingsMethodOf,
  streamTimeoutMs,
  TIMEOUT_ATTACHMENT,
  type TimedOutAttempt,
} from "./attempt-timeout.js";
export { DeadlineTimers, type DeadlineTimersOptions, type TimedEntry } from "./deadline-timers.js";
export {
  enterProviderContext,
  invokeInProviderContext,
  isInProviderContextOf,
  withResponseAttachments,
} from "./provider-scope.js";
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
export { CALL_COMPLETED, cancelableSignal, canceledError, NEVER_ABORTED, raceSignal } from "./signals.js";
