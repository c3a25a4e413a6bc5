import type { ObjectInput, Serialization } from "../../../serialize/index.js";

const NO_BYTES = Buffer.alloc(0);

/**
 * One input of `serialization` read body after body, for a codec that reads bodies one at a time:
 * `take` restarts it on the next body (the Hessian reader keeps its tables' room, so no reader and
 * no table is made per body), `give` makes it let go of that body and of the values read from it.
 * A serialization whose input cannot restart gets a new input per body, and so does a body taken
 * while the kept input is still out (a decode inside a decode), so no two reads ever share one.
 */
export class KeptInput {
  readonly serialization: Serialization;
  #input: ObjectInput | undefined;
  #out = false;

  constructor(serialization: Serialization) {
    this.serialization = serialization;
  }

  /** An input positioned at `offset` of `body`; hand it back with `give` once the body is read. */
  take(body: Buffer, offset = 0): ObjectInput {
    const kept = this.#input;
    if (kept === undefined || this.#out) {
      const created = this.serialization.createInput(body, offset);
      if (kept === undefined && created.restart !== undefined) {
        this.#input = created;
        this.#out = true;
      }
      return created;
    }
    kept.restart!(body, offset);
    this.#out = true;
    return kept;
  }

  give(input: ObjectInput): void {
    if (input !== this.#input) return;
    input.restart!(NO_BYTES, 0);
    this.#out = false;
  }
}
