// dubbo-ts/internal: every layer's exports, for experiments. UNSTABLE: no semantic-versioning
// promise, anything may change in any release. Extensions are written against
// "dubbo-ts/extension" instead.
export * from "./cluster/index.js";
export * from "./config/index.js";
export * from "./core/index.js";
export * from "./filter/index.js";
export * from "./protocol/dubbo/exchange/index.js";
export * from "./protocol/dubbo/index.js";
export * from "./protocol/injvm/index.js";
export * from "./protocol/shared/index.js";
export * from "./proxy/index.js";
export * from "./registry/directory/index.js";
export * from "./registry/dubbo/index.js";
export * from "./registry/index.js";
export * from "./registry/protocol/index.js";
export * from "./registry/zookeeper/index.js";
export * from "./serialize/index.js";
export * from "./transport/index.js";
