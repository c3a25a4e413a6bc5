// The injvm protocol: services exported and called within one application, through the same
// provider and consumer filter chains as remote calls.
export { INJVM_REMOTE_ADDRESS, InjvmInvoker } from "./injvm-invoker.js";
export {
  createInjvmProtocol,
  INJVM_PROTOCOL,
  type InjvmProtocol,
  type InjvmProtocolOptions,
} from "./injvm-protocol.js";
export { createInjvmRegistry, InjvmRegistry, injvmServiceKey } from "./injvm-registry.js";
