const SIZE_BYTES = 4;

/**
 * Cuts ZooKeeper's length-prefixed replies (a 4-byte big-endian size, then the body) out of the
 * socket's chunks, joining each frame's chunks once. The client library joins its pending bytes
 * with every new 64 KiB chunk instead, which copies a 4 MB `getChildren` reply (10 000 provider
 * nodes) about 70 times over; handed whole frames, it never buffers.
 */
export class ZkFrames {
  #chunks: Buffer[] = [];
  #buffered = 0;

  /** The complete frames (size prefix included) that `chunk` finishes, in order. */
  push(chunk: Buffer): Buffer[] {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    const frames: Buffer[] = [];
    for (;;) {
      if (this.#buffered < SIZE_BYTES) break;
      const head = this.#chunks[0]!.length >= SIZE_BYTES ? this.#chunks[0]! : this.#joined();
      const frameLength = SIZE_BYTES + head.readInt32BE(0);
      if (this.#buffered < frameLength) break;
      const all = this.#joined();
      frames.push(all.subarray(0, frameLength));
      const rest = all.subarray(frameLength);
      this.#chunks = rest.length > 0 ? [rest] : [];
      this.#buffered = rest.length;
    }
    return frames;
  }

  /** Drops what a dead socket left half-received. */
  clear(): void {
    this.#chunks = [];
    this.#buffered = 0;
  }

  #joined(): Buffer {
    if (this.#chunks.length > 1) this.#chunks = [Buffer.concat(this.#chunks, this.#buffered)];
    return this.#chunks[0]!;
  }
}
