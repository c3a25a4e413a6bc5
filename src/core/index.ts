// The core model: URL, errors, Java types, and the contracts every layer talks through.
// Node built-ins only; no third-party package.

export { boundedMemo } from "./bounded-memo.js";
export * from "./context/index.js";
export * from "./defaults.js";
export { BizError, type BizErrorOptions, DEFAULT_EXCEPTION_CLASS } from "./error/biz-error.js";
export { Code, codeToString } from "./error/code.js";
export { isRetryable, RpcError, type RpcErrorOptions } from "./error/rpc-error.js";
export {
  type ActivatedExtension,
  type ActivateOptions,
  type Activation,
  type ActivationSide,
  activateExtensions,
  assertKnownNames,
  DEFAULT_EXTENSIONS,
} from "./extension/activation.js";
export type { ExtensionWrapper } from "./extension/extension-point.js";
export { ExtensionPoint } from "./extension/extension-point.js";
export { activateFilters, type FilterExtension, filterListKey } from "./extension/filter-extension.js";
export type { ExtensionPlugin } from "./extension/plugin.js";
export { loadOnFirstUse } from "./first-use.js";
export * from "./java/java-slots.js";
export * from "./java/java-type.js";
export * from "./java/java-value-check.js";
export * from "./logging/index.js";
export { packageFile } from "./package-file.js";
export type { Filter, InvokeFn } from "./rpc/filter.js";
export { ECHO_METHOD, isFrameworkMethod } from "./rpc/framework-methods.js";
export * from "./rpc/idl-method.js";
export * from "./rpc/invocation.js";
export type { Exporter, Invoker, Node, Protocol } from "./rpc/invoker.js";
export * from "./rpc/method-dispatch.js";
export * from "./rpc/result.js";
export { RpcStatus, RpcStatusTable } from "./rpc/rpc-status.js";
export * from "./rpc/service-definition.js";
export { EncodedUrlTemplate } from "./url/encoded-template.js";
export { sharedParamNames } from "./url/shaped-params.js";
export { buildServiceKey, splitList, Url, type UrlParts } from "./url/url.js";
export { javaUrlDecode, javaUrlEncode } from "./url/url-encoding.js";
