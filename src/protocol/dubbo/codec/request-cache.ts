import type { Hessian2Reader } from "../../../serialize/hessian2/index.js";
import { createRequestReader, type RequestHead, readRequestHead } from "./request-body.js";

/**
 * A consumer sends the same bytes for the head of every call to a method (dubbo version, path,
 * version, method, descriptor) and usually the same attachments map. A provider remembers the last
 * few byte strings it decoded for each and reuses the values when the bytes match, instead of
 * decoding them again. Same bytes decode to the same values: the head holds only strings, which
 * take no back-reference slot, and the attachments map is the last value of a body.
 */
const ENTRIES = 8;

interface Entry<V> {
  readonly bytes: Buffer;
  readonly value: V;
}

class RecentBytes<V> {
  readonly #entries: Entry<V>[] = [];
  #next = 0;
  #lastHit = 0;

  /** The entry whose bytes `body` holds at `offset` (to its end when `whole`). */
  find(body: Buffer, offset: number, whole: boolean): Entry<V> | undefined {
    const entries = this.#entries;
    const n = entries.length;
    for (let k = 0; k < n; k++) {
      const i = (this.#lastHit + k) % n;
      const entry = entries[i]!;
      const length = entry.bytes.length;
      if (whole ? body.length - offset !== length : body.length - offset < length) continue;
      if (body.compare(entry.bytes, 0, length, offset, offset + length) === 0) {
        this.#lastHit = i;
        return entry;
      }
    }
    return undefined;
  }

  remember(bytes: Buffer, value: V): void {
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

  /** Reads the head of `body`; the reader is left at the first argument. */
  readHead(body: Buffer): { readonly head: RequestHead; readonly reader: Hessian2Reader } {
    const hit = this.#heads.find(body, 0, false);
    if (hit !== undefined) return { head: hit.value, reader: createRequestReader(body, hit.bytes.length) };
    const reader = createRequestReader(body);
    const head = readRequestHead(reader);
    this.#heads.remember(body.subarray(0, reader.offset), head);
    return { head, reader };
  }

  /**
   * Reads the attachments that end `body` from the reader's position with `decode`, or copies the
   * ones decoded earlier from the same bytes. The caller owns the returned record.
   */
  readAttachments(
    body: Buffer,
    reader: Hessian2Reader,
    decode: (reader: Hessian2Reader) => Record<string, unknown>,
  ): Record<string, unknown> {
    const offset = reader.offset;
    const hit = this.#attachments.find(body, offset, true);
    if (hit !== undefined) return { ...hit.value };
    const attachments = decode(reader);
    // Only flat maps are shared (a copy of the record is handed out); nested values could be mutated.
    let flat = true;
    for (const key in attachments) if (!isPrimitive(attachments[key])) flat = false;
    if (flat && reader.remaining === 0) {
      this.#attachments.remember(body.subarray(offset), Object.freeze({ ...attachments }));
    }
    return attachments;
  }
}
