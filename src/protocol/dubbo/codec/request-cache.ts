import type { ObjectInput, Serialization } from "../../../serialize/index.js";
import { KeptInput } from "./kept-input.js";
import { type RequestHead, readRequestHead } from "./request-body.js";

/**
 * A consumer sends the same bytes for the head of every call to a method (dubbo version, path,
 * version, method, descriptor) and usually the same attachments map. A provider remembers the last
 * few byte strings it decoded for each and reuses the values when the bytes match, instead of
 * decoding them again. Same bytes decode to the same values: the head holds only strings, which
 * take no back-reference slot, and the attachments map is the last value of a body. One cache per
 * serialization, since the same bytes mean different values in two of them. A cache that keeps
 * missing rests for a while (see {@link MISSES_BEFORE_REST}), so varied traffic pays nearly nothing.
 */
const ENTRIES = 8;
/**
 * Misses in a row after which a cache rests: when every call differs (a per-call trace id in the
 * attachments), looking costs up to eight comparisons and remembering a copy of the bytes and of the
 * record, per call, for nothing (half of the provider's request decode in the varied-traffic bench).
 */
const MISSES_BEFORE_REST = 16;
/** Lookups a resting cache answers "not found" without looking, before it tries again. */
const REST_LOOKUPS = 1024;

interface Entry<V> {
  readonly bytes: Buffer;
  readonly value: V;
}

class RecentBytes<V> {
  readonly #entries: Entry<V>[] = [];
  #next = 0;
  #lastHit = 0;
  #misses = 0;
  #restLeft = 0;

  /** While resting, `find` does not look and `remember` keeps nothing. */
  get resting(): boolean {
    return this.#restLeft > 0;
  }

  /** The entry whose bytes `body` holds at `offset` (to its end when `whole`). */
  find(body: Buffer, offset: number, whole: boolean): Entry<V> | undefined {
    if (this.#restLeft > 0) {
      this.#restLeft--;
      return undefined;
    }
    const entries = this.#entries;
    const n = entries.length;
    for (let k = 0; k < n; k++) {
      const i = (this.#lastHit + k) % n;
      const entry = entries[i]!;
      const length = entry.bytes.length;
      if (whole ? body.length - offset !== length : body.length - offset < length) continue;
      if (body.compare(entry.bytes, 0, length, offset, offset + length) === 0) {
        this.#lastHit = i;
        this.#misses = 0;
        return entry;
      }
    }
    if (++this.#misses === MISSES_BEFORE_REST) {
      this.#misses = 0;
      this.#restLeft = REST_LOOKUPS;
    }
    return undefined;
  }

  remember(bytes: Buffer, value: V): void {
    if (this.#restLeft > 0) return;
    // A copy: `bytes` views a socket chunk that must not stay alive for the cache.
    const entry = { bytes: Buffer.from(bytes), value };
    if (this.#entries.length < ENTRIES) this.#entries.push(entry);
    else {
      this.#entries[this.#next] = entry;
      this.#next = (this.#next + 1) % ENTRIES;
    }
  }
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== "object" && typeof value !== "function");
}

export class RequestCache {
  readonly #heads = new RecentBytes<RequestHead>();
  readonly #attachments = new RecentBytes<Readonly<Record<string, unknown>>>();
  /** The input every request is read with (bodies are read one at a time), handed back by `release`. */
  readonly #inputs: KeptInput;

  constructor(serialization: Serialization) {
    this.#inputs = new KeptInput(serialization);
  }

  /** Reads the head of `body`; the input is left at the first argument. */
  readHead(body: Buffer): { readonly head: RequestHead; readonly input: ObjectInput } {
    const hit = this.#heads.find(body, 0, false);
    if (hit !== undefined) return { head: hit.value, input: this.#inputs.take(body, hit.bytes.length) };
    const input = this.#inputs.take(body, 0);
    const head = readRequestHead(input);
    this.#heads.remember(body.subarray(0, input.offset), head);
    return { head, input };
  }

  /**
   * Reads the attachments that end `body` from the input's position with `decode`, or copies the
   * ones decoded earlier from the same bytes. The caller owns the returned record.
   */
  readAttachments(
    body: Buffer,
    input: ObjectInput,
    decode: (input: ObjectInput) => Record<string, unknown>,
  ): Record<string, unknown> {
    const offset = input.offset;
    const hit = this.#attachments.find(body, offset, true);
    if (hit !== undefined) {
      this.release(input);
      return { ...hit.value };
    }
    const attachments = decode(input);
    const ended = input.remaining === 0;
    this.release(input);
    if (this.#attachments.resting) return attachments;
    // Only flat maps are shared (a copy of the record is handed out); nested values could be mutated.
    let flat = true;
    for (const key in attachments) if (!isPrimitive(attachments[key])) flat = false;
    if (flat && ended) {
      this.#attachments.remember(body.subarray(offset), Object.freeze({ ...attachments }));
    }
    return attachments;
  }

  /**
   * The input lets go of its body and values until the next request: the attachments end a
   * request, and a request refused or failed before them hands its input back here too.
   */
  release(input: ObjectInput): void {
    this.#inputs.give(input);
  }
}
