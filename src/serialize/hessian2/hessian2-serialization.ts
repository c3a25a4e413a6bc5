import { HESSIAN2_SERIALIZATION_ID } from "../../core/index.js";
import type { ObjectInput, ObjectOutput, Serialization } from "../serialization.js";
import type { Hessian2Options } from "./options.js";
import { Hessian2Reader } from "./reader.js";
import { Hessian2Writer } from "./writer.js";

/**
 * A Hessian 2 writer as a reusable body output: each body is carved out of the writer's slab after
 * the previous one (finishing copies nothing), and its class-definition and reference tables start
 * afresh per body, as Java's per-message Hessian2Output does.
 */
class Hessian2Output extends Hessian2Writer implements ObjectOutput {
  writeBytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  finish(): Buffer {
    const body = this.toBuffer();
    this.reset();
    return body;
  }
}

/** Hessian 2 as a Dubbo serialization (id 2, Java's `hessian2`, the default). */
export function createHessian2Serialization(options?: Hessian2Options): Serialization {
  return {
    id: HESSIAN2_SERIALIZATION_ID,
    name: "hessian2",
    createOutput: (): ObjectOutput => new Hessian2Output(options),
    createInput: (bytes: Uint8Array, offset = 0): ObjectInput => new Hessian2Reader(bytes, options, offset),
  };
}
