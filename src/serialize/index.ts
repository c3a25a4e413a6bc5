// Serializations the dubbo protocol picks by the frame header's id: Hessian 2 (2, the default) and JSON (6),
// and any a plugin registers (the `serialization` extension point).
import { DEFAULT_SERIALIZATION, ExtensionPoint } from "../core/index.js";
import { createHessian2Serialization } from "./hessian2/hessian2-serialization.js";
import { createJsonSerialization } from "./json/json-serialization.js";
import type { Serialization } from "./serialization.js";

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
export { preferredSerialization, SerializationTable } from "./serialization-table.js";

/** The built-in serializations by name (Java's names): stateless, so every application shares them. */
export const BUILTIN_SERIALIZATIONS: ReadonlyArray<readonly [string, Serialization]> = [
  ["hessian2", createHessian2Serialization()],
  ["fastjson", createJsonSerialization()],
];

/** A fresh serialization point holding only the built-ins (a protocol created outside an application). */
export function builtinSerializations(): ExtensionPoint<Serialization> {
  return new ExtensionPoint("serialization", DEFAULT_SERIALIZATION, BUILTIN_SERIALIZATIONS);
}
