// Everything below the public API, for extension authors (custom protocols, filters, balancers,
// routers, registries). No semantic-versioning promise.
export * from "./cluster/index.js";
export * from "./config/index.js";
export * from "./core/index.js";
export * from "./filter/index.js";
export * from "./protocol/injvm/index.js";
export * from "./proxy/index.js";
