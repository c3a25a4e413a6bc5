/**
 * The byte layer of the Hessian 2 writer: a growable buffer and the compact encodings of the
 * scalar forms, chosen exactly as Java's Hessian2Output chooses them so our bytes equal Java's.
 */

const TWO_32 = 4294967296;
const SURROGATE = /[\ud800-\udfff]/;
/** Strings and binaries longer than this are split into non-final chunks, as Java does. */
const CHUNK = 0x8000;

/** Java's `(int) x` cast: truncation, NaN to 0, saturation at the int range. */
function javaIntCast(x: number): number {
  if (Number.isNaN(x)) return 0;
  if (x >= 2147483647) return 2147483647;
  if (x <= -2147483648) return -2147483648;
  return Math.trunc(x);
}

/** Bodies are carved out of slabs this large: one ArrayBuffer serves many small bodies. */
const SLAB_SIZE = 64 * 1024;
/** A slab grown past this for one huge body is not kept for the next body. */
const MAX_KEPT_SLAB = 1024 * 1024;

/**
 * A bump allocator over slabs: each body is written in place after the previous one, and handed
 * out as a view that the writer never touches again, so finishing a body copies nothing.
 */
export class OutputBuffer {
  protected buf: Buffer;
  /** Where the body being written starts in `buf`. */
  protected start = 0;
  protected pos = 0;

  constructor() {
    this.buf = Buffer.allocUnsafeSlow(SLAB_SIZE);
  }

  protected ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    const used = this.pos - this.start;
    const needed = used + n;
    // A body that fits a fresh slab gets one. A larger one gets room for this write and one slab
    // more, or twice the body so far, whichever is larger: the doubling keeps repeated growth
    // amortised, and one large value (a 1 MiB binary) gets a slab near its size, which the body
    // handed out keeps alive (a power-of-two slab at twice the need took 4 MiB for it).
    const size = needed <= SLAB_SIZE ? SLAB_SIZE : Math.max(needed + SLAB_SIZE, 2 * used);
    const next = Buffer.allocUnsafeSlow(size);
    this.buf.copy(next, 0, this.start, this.pos);
    this.buf = next;
    this.start = 0;
    this.pos = used;
  }

  /** Hands the body written so far to the caller (a view the writer will never write again). */
  protected takeBody(): Buffer {
    const body = this.buf.subarray(this.start, this.pos);
    if (this.buf.length > MAX_KEPT_SLAB) {
      this.buf = Buffer.allocUnsafeSlow(SLAB_SIZE);
      this.pos = 0;
    }
    this.start = this.pos;
    return body;
  }

  /** Drops whatever was written since the last takeBody(). */
  protected discardBody(): void {
    this.pos = this.start;
  }

  /** Bytes in the current body. */
  get length(): number {
    return this.pos - this.start;
  }

  writeNull(): void {
    this.ensure(1);
    this.buf[this.pos++] = 0x4e;
  }

  writeBoolean(value: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = value ? 0x54 : 0x46;
  }

  /** `value` must be an int32. */
  writeInt(value: number): void {
    this.ensure(5);
    const buf = this.buf;
    let pos = this.pos;
    if (value >= -16 && value <= 47) {
      buf[pos++] = 0x90 + value;
    } else if (value >= -2048 && value <= 2047) {
      buf[pos++] = 0xc8 + (value >> 8);
      buf[pos++] = value & 0xff;
    } else if (value >= -262144 && value <= 262143) {
      buf[pos++] = 0xd4 + (value >> 16);
      buf[pos++] = (value >> 8) & 0xff;
      buf[pos++] = value & 0xff;
    } else {
      buf[pos++] = 0x49;
      buf[pos++] = (value >>> 24) & 0xff;
      buf[pos++] = (value >> 16) & 0xff;
      buf[pos++] = (value >> 8) & 0xff;
      buf[pos++] = value & 0xff;
    }
    this.pos = pos;
  }

  /** `value` must be a safe integer. */
  writeLong(value: number): void {
    this.ensure(9);
    const buf = this.buf;
    let pos = this.pos;
    if (value >= -8 && value <= 15) {
      buf[pos++] = 0xe0 + value;
    } else if (value >= -2048 && value <= 2047) {
      buf[pos++] = 0xf8 + (value >> 8);
      buf[pos++] = value & 0xff;
    } else if (value >= -262144 && value <= 262143) {
      buf[pos++] = 0x3c + (value >> 16);
      buf[pos++] = (value >> 8) & 0xff;
      buf[pos++] = value & 0xff;
    } else if (value >= -2147483648 && value <= 2147483647) {
      buf[pos++] = 0x59;
      buf[pos++] = (value >>> 24) & 0xff;
      buf[pos++] = (value >> 16) & 0xff;
      buf[pos++] = (value >> 8) & 0xff;
      buf[pos++] = value & 0xff;
    } else {
      buf[pos++] = 0x4c;
      const hi = Math.floor(value / TWO_32);
      const lo = value - hi * TWO_32;
      buf.writeInt32BE(hi, pos);
      buf.writeUInt32BE(lo, pos + 4);
      pos += 8;
    }
    this.pos = pos;
  }

  /** `value` must fit in 64 bits (the caller checks). */
  writeLongBig(value: bigint): void {
    if (value >= -2147483648n && value <= 2147483647n) {
      this.writeLong(Number(value));
      return;
    }
    this.ensure(9);
    this.buf[this.pos] = 0x4c;
    this.buf.writeBigInt64BE(value, this.pos + 1);
    this.pos += 9;
  }

  writeDouble(value: number): void {
    this.ensure(9);
    const buf = this.buf;
    const pos = this.pos;
    const intValue = javaIntCast(value);
    // Java would write -0.0 as 0x5b and lose the sign; the 8-byte form keeps it and Java reads it fine.
    if (intValue === value && (value !== 0 || 1 / value > 0)) {
      if (intValue === 0) {
        buf[pos] = 0x5b;
        this.pos = pos + 1;
        return;
      }
      if (intValue === 1) {
        buf[pos] = 0x5c;
        this.pos = pos + 1;
        return;
      }
      if (intValue >= -128 && intValue < 128) {
        buf[pos] = 0x5d;
        buf[pos + 1] = intValue & 0xff;
        this.pos = pos + 2;
        return;
      }
      if (intValue >= -32768 && intValue < 32768) {
        buf[pos] = 0x5e;
        buf[pos + 1] = (intValue >> 8) & 0xff;
        buf[pos + 2] = intValue & 0xff;
        this.pos = pos + 3;
        return;
      }
    }
    const mills = javaIntCast(value * 1000);
    if (0.001 * mills === value && (value !== 0 || 1 / value > 0)) {
      buf[pos] = 0x5f;
      buf.writeInt32BE(mills, pos + 1);
      this.pos = pos + 5;
      return;
    }
    buf[pos] = 0x44;
    buf.writeDoubleBE(value, pos + 1);
    this.pos = pos + 9;
  }

  /** Milliseconds since the epoch; the 4-byte minute form when exact, as Java writes it. */
  writeDate(ms: number): void {
    this.ensure(9);
    if (ms % 60000 === 0) {
      const minutes = ms / 60000;
      if (minutes >= -2147483648 && minutes <= 2147483647) {
        this.buf[this.pos] = 0x4b;
        this.buf.writeInt32BE(minutes, this.pos + 1);
        this.pos += 5;
        return;
      }
    }
    const hi = Math.floor(ms / TWO_32);
    this.buf[this.pos] = 0x4a;
    this.buf.writeInt32BE(hi, this.pos + 1);
    this.buf.writeUInt32BE(ms - hi * TWO_32, this.pos + 5);
    this.pos += 9;
  }

  writeString(value: string): void {
    const length = value.length;
    if (length <= 31) {
      // Short text (keys, names, tags): one-byte length and, while it is ASCII, one byte per unit.
      this.ensure(1 + length * 3);
      const buf = this.buf;
      let pos = this.pos;
      buf[pos++] = length;
      for (let i = 0; i < length; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) {
          this.pos = pos - 1 - i;
          this.writeShortString(value);
          return;
        }
        buf[pos++] = c;
      }
      this.pos = pos;
      return;
    }
    this.writeLongString(value);
  }

  private writeShortString(value: string): void {
    this.buf[this.pos++] = value.length;
    this.writeChars(value);
  }

  private writeLongString(value: string): void {
    const length = value.length;
    let start = 0;
    while (length - start > CHUNK) {
      let sub = CHUNK;
      const tail = value.charCodeAt(start + sub - 1);
      // A chunk never ends between the two halves of a surrogate pair.
      if (tail >= 0xd800 && tail <= 0xdbff) sub--;
      this.ensure(3 + sub * 3);
      this.buf[this.pos++] = 0x52;
      this.buf[this.pos++] = sub >> 8;
      this.buf[this.pos++] = sub & 0xff;
      this.writeChars(value.slice(start, start + sub));
      start += sub;
    }
    const rest = length - start;
    this.ensure(3 + rest * 3);
    const buf = this.buf;
    if (rest <= 31) {
      buf[this.pos++] = rest;
    } else if (rest <= 1023) {
      buf[this.pos++] = 0x30 + (rest >> 8);
      buf[this.pos++] = rest & 0xff;
    } else {
      buf[this.pos++] = 0x53;
      buf[this.pos++] = rest >> 8;
      buf[this.pos++] = rest & 0xff;
    }
    this.writeChars(start === 0 ? value : value.slice(start));
  }

  /**
   * UTF-8 per UTF-16 unit, so a surrogate becomes its own 3-byte sequence (what Java writes).
   * Capacity for 3 bytes per unit is already ensured.
   */
  private writeChars(s: string): void {
    const n = s.length;
    const buf = this.buf;
    if (n > 16) {
      const written = buf.write(s, this.pos, "utf8");
      // The native encoder is right unless the text holds surrogates (it would write 4-byte UTF-8).
      if (written === n || !SURROGATE.test(s)) {
        this.pos += written;
        return;
      }
    }
    let pos = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        buf[pos++] = c;
      } else if (c < 0x800) {
        buf[pos++] = 0xc0 | (c >> 6);
        buf[pos++] = 0x80 | (c & 0x3f);
      } else {
        buf[pos++] = 0xe0 | (c >> 12);
        buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
        buf[pos++] = 0x80 | (c & 0x3f);
      }
    }
    this.pos = pos;
  }

  writeBinary(bytes: Uint8Array): void {
    let length = bytes.length;
    let start = 0;
    // Room for every chunk and its 3-byte header at once: one grow for a large binary, not one per chunk.
    this.ensure(length + 3 * (Math.floor(length / CHUNK) + 1));
    while (length > CHUNK) {
      this.ensure(3 + CHUNK);
      this.buf[this.pos++] = 0x41;
      this.buf[this.pos++] = CHUNK >> 8;
      this.buf[this.pos++] = CHUNK & 0xff;
      this.buf.set(bytes.subarray(start, start + CHUNK), this.pos);
      this.pos += CHUNK;
      start += CHUNK;
      length -= CHUNK;
    }
    this.ensure(3 + length);
    const buf = this.buf;
    if (length <= 15) {
      buf[this.pos++] = 0x20 + length;
    } else if (length <= 1023) {
      buf[this.pos++] = 0x34 + (length >> 8);
      buf[this.pos++] = length & 0xff;
    } else {
      buf[this.pos++] = 0x42;
      buf[this.pos++] = length >> 8;
      buf[this.pos++] = length & 0xff;
    }
    buf.set(start === 0 ? bytes : bytes.subarray(start), this.pos);
    this.pos += length;
  }

  /** A back-reference to an earlier list, map or object: `Q` and the int index. */
  writeRef(index: number): void {
    this.ensure(1);
    this.buf[this.pos++] = 0x51;
    this.writeInt(index);
  }

  protected writeByte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }
}
