import type { ObjectOutput, Serialization } from "../../../serialize/index.js";
import { HEADER_LENGTH } from "../framing/index.js";

/** Written first into a framed body: the exchange fills the frame header in there, with no copy. */
const HEADER_ROOM = Buffer.alloc(HEADER_LENGTH);

/**
 * One output of a serialization, reused for every body a codec writes in it (its buffers survive
 * between bodies). Bodies are written synchronously, so a second output is only made if a value's
 * getter re-enters the codec while a body is half written.
 */
export class BodyOutputSlot {
  readonly serialization: Serialization;
  #output: ObjectOutput | undefined;
  #busy = false;

  constructor(serialization: Serialization) {
    this.serialization = serialization;
  }

  /** An output at the start of a body; with `framed`, 16 bytes for the frame header come first. */
  take(framed: boolean): ObjectOutput {
    let output: ObjectOutput;
    if (this.#busy) output = this.serialization.createOutput();
    else {
      this.#busy = true;
      output = this.#output ??= this.serialization.createOutput();
    }
    if (framed) output.writeBytes(HEADER_ROOM);
    return output;
  }

  /** Takes the output back; `failed` drops the half-written body. */
  give(output: ObjectOutput, failed: boolean): void {
    if (failed) output.reset();
    if (output === this.#output) this.#busy = false;
  }

  /** `values` (untyped) as a standalone buffer, to be spliced into later bodies with `writeBytes`. */
  encodeOnce(values: readonly unknown[]): Buffer {
    const output = this.take(false);
    let failed = true;
    try {
      for (const value of values) output.writeValue(value);
      // A copy: the output's bytes may share its buffer, and this one is kept for the reference's life.
      const bytes = Buffer.from(output.finish());
      failed = false;
      return bytes;
    } finally {
      this.give(output, failed);
    }
  }
}

/** A decoded map (a `Map`, or a plain object) as the string-keyed record attachments are. */
export function toAttachmentRecord(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (value instanceof Map) {
    for (const [k, v] of value) {
      const key = String(k);
      // A hostile key never reaches the prototype.
      if (key === "__proto__") continue;
      out[key] = v;
    }
  } else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      if (key !== "__proto__") out[key] = (value as Record<string, unknown>)[key];
    }
  }
  return out;
}
