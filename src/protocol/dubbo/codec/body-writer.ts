import { type Hessian2Options, Hessian2Writer } from "../../../serialize/hessian2/index.js";
import { HEADER_LENGTH } from "../framing/index.js";

/**
 * A Hessian writer that can leave room for the frame header before a body (so header and body
 * leave as one buffer, with no copy) and append bytes encoded earlier (the constant parts of a
 * method's requests, encoded once per method).
 */
export class BodyWriter extends Hessian2Writer {
  /** Leaves 16 bytes for the frame header; call first, right after `reset()`. */
  reserveHeader(): this {
    this.ensure(HEADER_LENGTH);
    this.pos += HEADER_LENGTH;
    return this;
  }

  /**
   * Appends complete Hessian values encoded by another writer. Only for values that hold no
   * back-reference and are not referred to later (strings; a map written last in the body).
   */
  writeEncoded(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }
}

/**
 * One Hessian writer reused for every body a codec writes (its slab and tables survive between
 * bodies). Bodies are written synchronously, so a second writer is only made if a value's getter
 * re-enters the codec while a body is half written.
 */
export class BodyWriterSlot {
  readonly #options: Hessian2Options | undefined;
  #writer: BodyWriter | undefined;
  #busy = false;

  constructor(options?: Hessian2Options) {
    this.#options = options;
  }

  take(): BodyWriter {
    if (this.#busy) return new BodyWriter(this.#options);
    this.#busy = true;
    this.#writer ??= new BodyWriter(this.#options);
    this.#writer.reset();
    return this.#writer;
  }

  give(writer: BodyWriter): void {
    if (writer === this.#writer) this.#busy = false;
  }

  /** Hessian-encodes `values` (untyped) into a standalone buffer, to be appended with `writeEncoded`. */
  encodeOnce(values: readonly unknown[]): Buffer {
    const writer = this.take();
    try {
      for (const value of values) writer.writeValue(value);
      // A copy: the writer's view shares its slab, and this buffer is kept for the reference's life.
      return Buffer.from(writer.toBuffer());
    } finally {
      this.give(writer);
    }
  }
}

/** A decoded Hessian map (a `Map`, or a plain object) as the string-keyed record attachments are. */
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

/** Path labels for encode errors (`args[0]`), made once. */
const ARG_LABELS = Array.from({ length: 16 }, (_, i) => `args[${i}]`);

export function argLabel(index: number): string {
  return ARG_LABELS[index] ?? `args[${index}]`;
}
