import { Code, HESSIAN2_SERIALIZATION_ID, type JavaType, RpcError } from "../../core/index.js";
import type { ObjectInput, ObjectOutput, Serialization } from "../serialization.js";
import type { Hessian2Options } from "./options.js";
import { Hessian2Reader } from "./reader.js";
import { Hessian2Writer } from "./writer.js";

/** Idle writers kept for reuse; more than this many bodies in progress at once just allocate. */
const MAX_IDLE_WRITERS = 8;

class Hessian2Output implements ObjectOutput {
  private writer: Hessian2Writer | undefined;

  constructor(
    writer: Hessian2Writer,
    private readonly idle: Hessian2Writer[],
  ) {
    this.writer = writer;
  }

  writeValue(value: unknown, type?: JavaType, path?: string): void {
    if (this.writer === undefined) throw new RpcError("hessian2 output used after finish()", Code.Internal);
    this.writer.writeValue(value, type, path);
  }

  finish(): Buffer {
    const writer = this.writer;
    if (writer === undefined) throw new RpcError("hessian2 output finished twice", Code.Internal);
    this.writer = undefined;
    const body = writer.toBuffer();
    writer.reset();
    if (this.idle.length < MAX_IDLE_WRITERS) this.idle.push(writer);
    return body;
  }
}

/**
 * Hessian 2 as a Dubbo serialization (id 2). Each output is one frame body; finished outputs
 * return their writer (and its slab) to a small pool, so steady traffic allocates no writers.
 */
export function createHessian2Serialization(options?: Hessian2Options): Serialization {
  const idle: Hessian2Writer[] = [];
  return {
    id: HESSIAN2_SERIALIZATION_ID,
    name: "hessian2",
    createOutput(): ObjectOutput {
      return new Hessian2Output(idle.pop() ?? new Hessian2Writer(options), idle);
    },
    createInput(bytes: Uint8Array, offset = 0): ObjectInput {
      return new Hessian2Reader(bytes, options, offset);
    },
  };
}
