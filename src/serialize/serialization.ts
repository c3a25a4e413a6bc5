import type { JavaType } from "../core/index.js";

/**
 * Writes frame bodies, one after another: the values of a body in order (class definitions and
 * references span the body), then `finish()`. A codec keeps one output and reuses it for every
 * body it writes, so an implementation should keep its buffers between bodies.
 */
export interface ObjectOutput {
  /** `path` names the value in errors (e.g. `args[0]`). On error nothing of this value is kept. */
  writeValue(value: unknown, type?: JavaType, path?: string): void;
  /**
   * Appends bytes as they are: room the caller fills in later (the frame header), or values a
   * `finish()` of this serialization returned that need nothing from the rest of the body (the
   * codec splices only strings and maps of scalars, which in Hessian 2 take no class-definition
   * or back-reference slot that a later value could point at).
   */
  writeBytes(bytes: Uint8Array): void;
  /**
   * Optional: writes one untyped map holding the entries of `encoded` (the bytes a `finish()` of
   * this serialization returned for a record of scalars alone) then those of `record`, as
   * `writeValue` writes the record that merges them; the caller keeps their keys distinct. Lets the
   * codec send a reference's constant attachments, encoded once, and a call's own in one map,
   * encoding only the call's own and making no merged copy per call.
   */
  writeMerged?(encoded: Uint8Array, record: Readonly<Record<string, unknown>>, path: string): void;
  /** Ends the body and returns its bytes (the caller may keep them); the output starts the next body. */
  finish(): Buffer;
  /** Drops what was written since the last `finish()` (a body abandoned half way). */
  reset(): void;
}

/** Reads the values of one frame body, in order. */
export interface ObjectInput {
  readValue(type?: JavaType): unknown;
  /**
   * Optional: reads a value into `target[index]` and records the Java type it arrived as when its
   * JS value would write back as another one (a Long sent for an Object parameter), so a
   * pass-through or `$echo` answers it as the same Java type. Without it the codec uses `readValue`.
   */
  readSlot?(target: unknown[], index: number, type?: JavaType): unknown;
  /**
   * Optional: reads the next value when it is an untyped map straight into a string-keyed record
   * (keys as strings, a `__proto__` key dropped), as attachments are kept, with no `Map` made on the
   * way; undefined, nothing read, when it is another form. Without it the codec reads the value
   * and copies it.
   */
  readRecord?(): Record<string, unknown> | undefined;
  /**
   * Optional: reads another body (from `offset`) with this input, which forgets the last one: a
   * codec reading body after body keeps one input instead of creating one per body.
   */
  restart?(bytes: Uint8Array, offset?: number): void;
  /** Where the next value starts in the bytes given. */
  readonly offset: number;
  /** Bytes left after `offset` (0: the body has no more values). */
  readonly remaining: number;
}

/**
 * A Dubbo serialization (Java's `Serialization` extension): the id travels in the low five bits of
 * the frame header's flag byte (hessian2 = 2, fastjson = 6), so it is 1 to 31 and unique among an
 * application's serializations. Register one with a plugin:
 * `points.serialization.register("mine", mySerialization)`; a protocol's or reference's
 * `serialization` setting then names it.
 */
export interface Serialization {
  readonly id: number;
  readonly name: string;
  createOutput(): ObjectOutput;
  createInput(bytes: Uint8Array, offset?: number): ObjectInput;
}
