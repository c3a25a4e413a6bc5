// Hessian 2.0 (Caucho spec, as Java Dubbo's hessian-lite speaks it): the default Dubbo serialization.
// A Hessian2Writer / Hessian2Reader serves body after body (reset / restart); encodeHessian/decodeHessian single values.
import type { JavaType } from "../../core/index.js";
import { DEFAULT_HESSIAN2_OPTIONS, type Hessian2Options } from "./options.js";
import { Hessian2Reader } from "./reader.js";
import { Hessian2Writer } from "./writer.js";

export { javaClassOf, javaObject } from "./java-object.js";
export type { Hessian2Options, HessianClass } from "./options.js";
export { Hessian2Reader } from "./reader.js";
export { Hessian2Writer } from "./writer.js";

/** Reused by encodeHessian when no options are given; a nested call (from a getter) gets its own. */
let sharedWriter: Hessian2Writer | undefined;
let sharedBusy = false;

/** Encodes one value as a complete Hessian 2 body. */
export function encodeHessian(value: unknown, type?: JavaType, options?: Hessian2Options): Buffer {
  if (options !== undefined || sharedBusy) {
    return new Hessian2Writer(options).writeValue(value, type).toBuffer();
  }
  sharedWriter ??= new Hessian2Writer(DEFAULT_HESSIAN2_OPTIONS);
  sharedBusy = true;
  try {
    sharedWriter.reset();
    return sharedWriter.writeValue(value, type).toBuffer();
  } finally {
    sharedBusy = false;
  }
}

/** Decodes the first value of `bytes`. */
export function decodeHessian(bytes: Uint8Array, type?: JavaType, options?: Hessian2Options): unknown {
  return new Hessian2Reader(bytes, options).readValue(type);
}
