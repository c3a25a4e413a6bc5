import type { JavaType } from "../core/index.js";

/** Writes the values of one frame body, in order; class definitions and references span the body. */
export interface ObjectOutput {
  /** `path` names the value in errors (e.g. `args[0]`). */
  writeValue(value: unknown, type?: JavaType, path?: string): void;
  /** Ends the body and returns its bytes (the caller may keep them). */
  finish(): Buffer;
}

/** Reads the values of one frame body, in order. */
export interface ObjectInput {
  readValue(type?: JavaType): unknown;
  /** Where the next value starts in the bytes given. */
  readonly offset: number;
}

/** A Dubbo serialization: the id travels in the frame header (hessian2 = 2, fastjson = 6). */
export interface Serialization {
  readonly id: number;
  readonly name: string;
  createOutput(): ObjectOutput;
  createInput(bytes: Uint8Array, offset?: number): ObjectInput;
}
