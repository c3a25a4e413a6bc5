// Typed consumer stubs (a JS Proxy over an invoker), the generic stub ($invoke) and echo ($echo),
// and the provider invoker that wraps a user's implementation.
export { type CallOptions, withCallOptions } from "./call-options.js";
export { type CallPlan, callWithPlan, createCallPlan } from "./call-plan.js";
export { type ConsumerStub, createStub } from "./consumer-stub.js";
export type { EchoService } from "./echo-service.js";
export { createGenericStub, type GenericStub } from "./generic-stub.js";
export { createIdlStub } from "./idl-stub.js";
export { createProviderInvoker } from "./provider-invoker.js";
