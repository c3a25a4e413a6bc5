/** Bytes compared per call when looking for the first difference (then halved down to one). */
const COMPARE_BLOCK = 64 * 1024;

/**
 * One run of bytes held as the socket chunks it arrived in, not joined: a 4 MB `getChildren`
 * reply (10 000 provider nodes) comes as 64 chunks of 64 KiB, and joining them was a fresh 4 MB
 * copy per read and the GC that memory brought, a half of the read's CPU. Offsets are into the
 * whole run; a value that straddles two chunks is read across them.
 */
export class ByteChunks {
  readonly length: number;
  readonly #chunks: readonly Buffer[];
  /** Where each chunk starts in the run, then the run's length. */
  readonly #starts: Int32Array;
  /** The chunk the last offset fell in: reads mostly walk forward. */
  #last = 0;

  constructor(chunks: readonly Buffer[]) {
    this.#chunks = chunks.filter((chunk) => chunk.length > 0);
    this.#starts = new Int32Array(this.#chunks.length + 1);
    let at = 0;
    this.#chunks.forEach((chunk, i) => {
      this.#starts[i] = at;
      at += chunk.length;
    });
    this.#starts[this.#chunks.length] = at;
    this.length = at;
  }

  /**
   * These bytes, copied into one buffer if they hold on to chunks more than twice their size (a
   * small reply that shares its socket chunks with others), so that keeping them keeps little.
   */
  compacted(): ByteChunks {
    const held = this.#chunks.reduce((sum, chunk) => sum + chunk.buffer.byteLength, 0);
    return held > 2 * this.length ? new ByteChunks([Buffer.from(this.joined())]) : this;
  }

  /** The bytes as one buffer: the chunk itself when there is one, else a join. */
  joined(): Buffer {
    return this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.length);
  }

  readInt32BE(at: number): number {
    if (at < 0 || at + 4 > this.length) throw new RangeError(`offset ${at} + 4 is past ${this.length} bytes`);
    const i = this.#chunkAt(at);
    const offset = at - this.#starts[i]!;
    const chunk = this.#chunks[i]!;
    if (offset + 4 <= chunk.length) return chunk.readInt32BE(offset);
    return (
      (this.#byte(at) << 24) | (this.#byte(at + 1) << 16) | (this.#byte(at + 2) << 8) | this.#byte(at + 3)
    );
  }

  /** `[from, to)` decoded as UTF-8 (joined first if it straddles chunks, so no character is cut). */
  toString(from: number, to: number): string {
    if (from === to) return "";
    const i = this.#chunkAt(from);
    const start = this.#starts[i]!;
    if (to <= this.#starts[i + 1]!) return this.#chunks[i]!.toString("utf8", from - start, to - start);
    const joined = Buffer.allocUnsafe(to - from);
    this.copy(joined, 0, from, to);
    return joined.toString("utf8");
  }

  /** Copies `[from, to)` into `target` at `targetStart`. */
  copy(target: Buffer, targetStart: number, from: number, to: number): void {
    let at = from;
    while (at < to) {
      const i = this.#chunkAt(at);
      const start = this.#starts[i]!;
      const n = Math.min(to, this.#starts[i + 1]!) - at;
      this.#chunks[i]!.copy(target, targetStart + at - from, at - start, at - start + n);
      at += n;
    }
  }

  /** How many bytes `this[from, to)` and `other[otherFrom, otherTo)` share at their start. */
  sameHead(from: number, to: number, other: ByteChunks, otherFrom: number, otherTo: number): number {
    let same = 0;
    const most = Math.min(to - from, otherTo - otherFrom);
    while (same < most) {
      // The longest stretch that lies in one chunk on both sides.
      const [a, aAt, aRoom] = this.#piece(from + same);
      const [b, bAt, bRoom] = other.#piece(otherFrom + same);
      const n = Math.min(aRoom, bRoom, most - same);
      const equal = sameHead(a, aAt, b, bAt, n);
      same += equal;
      if (equal < n) break;
    }
    return same;
  }

  /** How many bytes `this[from, to)` and `other[otherFrom, otherTo)` share at their end. */
  sameTail(from: number, to: number, other: ByteChunks, otherFrom: number, otherTo: number): number {
    let same = 0;
    const most = Math.min(to - from, otherTo - otherFrom);
    while (same < most) {
      const [a, aEnd, aRoom] = this.#pieceBefore(to - same);
      const [b, bEnd, bRoom] = other.#pieceBefore(otherTo - same);
      const n = Math.min(aRoom, bRoom, most - same);
      const equal = sameTail(a, aEnd, b, bEnd, n);
      same += equal;
      if (equal < n) break;
    }
    return same;
  }

  /** The chunk holding byte `at`, the offset of `at` in it, and how many bytes from there it holds. */
  #piece(at: number): [Buffer, number, number] {
    const i = this.#chunkAt(at);
    const chunk = this.#chunks[i]!;
    const offset = at - this.#starts[i]!;
    return [chunk, offset, chunk.length - offset];
  }

  /** The chunk holding byte `end - 1`, the offset of `end` in it, and how many bytes before that it holds. */
  #pieceBefore(end: number): [Buffer, number, number] {
    const i = this.#chunkAt(end - 1);
    const offset = end - this.#starts[i]!;
    return [this.#chunks[i]!, offset, offset];
  }

  #byte(at: number): number {
    const i = this.#chunkAt(at);
    return this.#chunks[i]![at - this.#starts[i]!]!;
  }

  /** The index of the chunk holding byte `at` (`0 <= at < length`). */
  #chunkAt(at: number): number {
    const starts = this.#starts;
    let i = this.#last;
    if (at >= starts[i]! && at < starts[i + 1]!) return i;
    if (at >= starts[i + 1]! && at < starts[i + 2]!) i++;
    else {
      let low = 0;
      let high = this.#chunks.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (starts[mid]! <= at) low = mid;
        else high = mid - 1;
      }
      i = low;
    }
    this.#last = i;
    return i;
  }
}

/** How many of the `n` bytes at `a[aAt]` and `b[bAt]` are the same from the start. */
function sameHead(a: Buffer, aAt: number, b: Buffer, bAt: number, n: number): number {
  let same = 0;
  let block = Math.min(COMPARE_BLOCK, n);
  while (block > 0) {
    if (a.compare(b, bAt + same, bAt + same + block, aAt + same, aAt + same + block) === 0) {
      same += block;
      block = Math.min(block, n - same);
    } else block >>= 1;
  }
  return same;
}

/** How many of the `n` bytes before `a[aEnd]` and `b[bEnd]` are the same from the end. */
function sameTail(a: Buffer, aEnd: number, b: Buffer, bEnd: number, n: number): number {
  let same = 0;
  let block = Math.min(COMPARE_BLOCK, n);
  while (block > 0) {
    if (a.compare(b, bEnd - same - block, bEnd - same, aEnd - same - block, aEnd - same) === 0) {
      same += block;
      block = Math.min(block, n - same);
    } else block >>= 1;
  }
  return same;
}
