// Everything below the public API, for extension authors (custom protocols, filters, balancers,
// routers, registries). No semantic-versioning promise.
export * from "./cluster/index.js";
export * from "./config/index.js";
export * from "./core/index.js";
export * from "./exchange/index.js";
export * from "./filter/index.js";
export * from "./protocol/dubbo/index.js";
export * from "./protocol/injvm/index.js";
export * from "./proxy/index.js";
export * from "./registry/directory/index.js";
export * from "./registry/dubbo/index.js";
export * from "./registry/index.js";
export * from "./registry/protocol/index.js";
export * from "./serialize/index.js";
export * from "./transport/index.js";
