// Serializations the dubbo protocol picks by the frame header's id: Hessian 2 (2, the default) and JSON (6).

export { createHessian2Serialization } from "./hessian2/hessian2-serialization.js";
export {
  decodeHessian,
  encodeHessian,
  type Hessian2Options,
  Hessian2Reader,
  Hessian2Writer,
  type HessianClass,
  javaClassOf,
  javaObject,
} from "./hessian2/index.js";
export { createJsonSerialization } from "./json/json-serialization.js";
export type { ObjectInput, ObjectOutput, Serialization } from "./serialization.js";
