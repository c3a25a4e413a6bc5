import { ByteChunks } from "./byte-chunks.js";

const SIZE_BYTES = 4;

/**
 * Cuts ZooKeeper's length-prefixed replies (a 4-byte big-endian size, then the body) out of the
 * socket's chunks, each frame as the chunks it spans (not joined: see byte-chunks.ts). The client
 * library joins its pending bytes with every new 64 KiB chunk instead, which copies a 4 MB
 * `getChildren` reply (10 000 provider nodes) about 70 times over; handed whole frames, it never
 * buffers.
 */
export class ZkFrames {
  #chunks: Buffer[] = [];
  #buffered = 0;

  /** The complete frames (size prefix included) that `chunk` finishes, in order. */
  push(chunk: Buffer): ByteChunks[] {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    const frames: ByteChunks[] = [];
    while (this.#buffered >= SIZE_BYTES) {
      const head = this.#chunks[0]!;
      const size =
        head.length >= SIZE_BYTES ? head.readInt32BE(0) : new ByteChunks(this.#chunks).readInt32BE(0);
      if (size < 0) throw new Error(`ZooKeeper reply frame declares a negative size (${size})`);
      if (this.#buffered < SIZE_BYTES + size) break;
      frames.push(this.#take(SIZE_BYTES + size));
    }
    return frames;
  }

  /** Drops what a dead socket left half-received. */
  clear(): void {
    this.#chunks = [];
    this.#buffered = 0;
  }

  /** The first `length` buffered bytes, as the chunks (or parts of them) that hold them. */
  #take(length: number): ByteChunks {
    const pieces: Buffer[] = [];
    let left = length;
    while (left > 0) {
      const head = this.#chunks[0]!;
      if (head.length <= left) {
        pieces.push(head);
        this.#chunks.shift();
        left -= head.length;
      } else {
        pieces.push(head.subarray(0, left));
        this.#chunks[0] = head.subarray(left);
        left = 0;
      }
    }
    this.#buffered -= length;
    return new ByteChunks(pieces);
  }
}
