import { type Hessian2Options, Hessian2Writer } from "../../../serialize/hessian2/index.js";

/**
 * One Hessian writer reused for every body a codec writes (its slab and tables survive between
 * bodies). Bodies are written synchronously, so a second writer is only made if a value's getter
 * re-enters the codec while a body is half written.
 */
export class BodyWriterSlot {
  readonly #options: Hessian2Options | undefined;
  #writer: Hessian2Writer | undefined;
  #busy = false;

  constructor(options?: Hessian2Options) {
    this.#options = options;
  }

  take(): Hessian2Writer {
    if (this.#busy) return new Hessian2Writer(this.#options);
    this.#busy = true;
    this.#writer ??= new Hessian2Writer(this.#options);
    this.#writer.reset();
    return this.#writer;
  }

  give(writer: Hessian2Writer): void {
    if (writer === this.#writer) this.#busy = false;
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
