import { dataLoss } from "./errors.js";

const TWO_32 = 4294967296;
const EMPTY = Buffer.alloc(0);

/** Node's unchecked slice decoders (on every Buffer since Node 0.x; fall back to toString if absent). */
interface SliceDecoders {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
const proto = Buffer.prototype as unknown as Partial<SliceDecoders>;
const latin1: (buf: Buffer, start: number, end: number) => string =
  typeof proto.latin1Slice === "function"
    ? (buf, start, end) => (buf as unknown as SliceDecoders).latin1Slice(start, end)
    : (buf, start, end) => buf.toString("latin1", start, end);
const utf8: (buf: Buffer, start: number, end: number) => string =
  typeof proto.utf8Slice === "function"
    ? (buf, start, end) => (buf as unknown as SliceDecoders).utf8Slice(start, end)
    : (buf, start, end) => buf.toString("utf8", start, end);

/**
 * The byte layer of the Hessian 2 reader: bounds-checked big-endian reads and the UTF-8 text Java
 * writes (lengths in UTF-16 units, surrogates as separate 3-byte sequences). Nothing is allocated
 * for a claimed length before that length is checked against the bytes actually present.
 */
/** Strings up to this many units are interned through a small direct-mapped cache. */
const SHORT_MAX = 16;
const SHORT_CACHE_MASK = 2047;
const shortCache: (string | undefined)[] = new Array(SHORT_CACHE_MASK + 1).fill(undefined);

export class InputBuffer {
  protected buf: Buffer = EMPTY;
  protected pos = 0;
  protected end = 0;

  constructor(bytes: Uint8Array, offset: number) {
    this.startAt(bytes, offset);
  }

  /** Reads `bytes` from `offset` on. */
  protected startAt(bytes: Uint8Array, offset: number): void {
    const buf = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!Number.isInteger(offset) || offset < 0 || offset > buf.length) {
      throw dataLoss(offset, `start offset outside the ${buf.length} bytes given`);
    }
    this.buf = buf;
    this.pos = offset;
    this.end = buf.length;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  protected need(n: number, what: string): void {
    if (this.pos + n > this.end) {
      throw dataLoss(this.pos, `truncated: ${what} needs ${n} more byte(s), ${this.end - this.pos} left`);
    }
  }

  protected u8(what: string): number {
    if (this.pos >= this.end) throw dataLoss(this.pos, `truncated: expected ${what}, input ended`);
    return this.buf[this.pos++]!;
  }

  protected u16(what: string): number {
    this.need(2, what);
    const v = (this.buf[this.pos]! << 8) | this.buf[this.pos + 1]!;
    this.pos += 2;
    return v;
  }

  protected i32(what: string): number {
    this.need(4, what);
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** Eight bytes as a number; only exact below 2^53 (callers that need more use readBigInt64BE). */
  protected i64Number(): number {
    this.need(8, "64-bit value");
    const hi = this.buf.readInt32BE(this.pos);
    const lo = this.buf.readUInt32BE(this.pos + 4);
    this.pos += 8;
    return hi * TWO_32 + lo;
  }

  /** Skips `expected` when the input continues with exactly those bytes; otherwise reads nothing. */
  protected skipBytes(expected: Uint8Array): boolean {
    const n = expected.length;
    const pos = this.pos;
    if (n === 0 || pos + n > this.end) return false;
    const buf = this.buf;
    for (let i = 0; i < n; i++) if (buf[pos + i] !== expected[i]) return false;
    this.pos = pos + n;
    return true;
  }

  /** `units` UTF-16 units of Java-style UTF-8. */
  protected readChars(units: number): string {
    const start = this.pos;
    const buf = this.buf;
    if (start + units <= this.end) {
      if (units <= SHORT_MAX) {
        // Short ASCII text repeats (field names, enum names, tags): serve it from the intern cache.
        let hash = units;
        let i = start;
        const stop = start + units;
        for (; i < stop; i++) {
          const c = buf[i]!;
          if (c >= 0x80) break;
          hash = (hash * 31 + c) | 0;
        }
        if (i === stop) {
          this.pos = stop;
          const slot = (hash ^ (hash >>> 11)) & SHORT_CACHE_MASK;
          const cached = shortCache[slot];
          if (cached !== undefined && cached.length === units) {
            let j = 0;
            while (j < units && cached.charCodeAt(j) === buf[start + j]) j++;
            if (j === units) return cached;
          }
          const text = latin1(buf, start, stop);
          shortCache[slot] = text;
          return text;
        }
      } else if (units < 24) {
        let i = start;
        const stop = start + units;
        while (i < stop && buf[i]! < 0x80) i++;
        if (i === stop) {
          this.pos = stop;
          return latin1(buf, start, stop);
        }
      } else {
        // One native pass: if every byte became one unit and none was invalid, the text is ASCII.
        const text = utf8(buf, start, start + units);
        if (text.length === units && text.indexOf("\ufffd") === -1) {
          this.pos = start + units;
          return text;
        }
      }
    }
    return this.readCharsSlow(units);
  }

  private readCharsSlow(units: number): string {
    const start = this.pos;
    const buf = this.buf;
    const end = this.end;
    let i = start;
    let count = 0;
    let native = true;
    while (count < units) {
      if (i >= end) throw dataLoss(i, `truncated: string needs ${units - count} more character(s)`);
      const c = buf[i]!;
      if (c < 0x80) {
        i++;
        count++;
      } else if ((c & 0xe0) === 0xc0) {
        i += 2;
        count++;
      } else if ((c & 0xf0) === 0xe0) {
        // 0xED 0xA0..0xBF is a surrogate half (Java's encoding of non-BMP text): not standard UTF-8.
        if (c === 0xed && (buf[i + 1] ?? 0) >= 0xa0) native = false;
        i += 3;
        count++;
      } else if ((c & 0xf8) === 0xf0) {
        // Standard 4-byte UTF-8 (some non-Java writers): two UTF-16 units.
        i += 4;
        count += 2;
      } else {
        throw dataLoss(i, `bad UTF-8 lead byte 0x${c.toString(16)} in string`);
      }
    }
    if (i > end) throw dataLoss(end, "truncated: string ends inside a character");
    if (count !== units) throw dataLoss(i, "string length splits a 4-byte character");
    this.pos = i;
    return native ? utf8(buf, start, i) : decodeJavaUtf8(buf, start, i);
  }
}

function decodeJavaUtf8(buf: Buffer, start: number, stop: number): string {
  let out = "";
  const codes: number[] = [];
  let i = start;
  while (i < stop) {
    const c = buf[i]!;
    if (c < 0x80) {
      codes.push(c);
      i++;
    } else if ((c & 0xe0) === 0xc0) {
      codes.push(((c & 0x1f) << 6) | (buf[i + 1]! & 0x3f));
      i += 2;
    } else if ((c & 0xf0) === 0xe0) {
      codes.push(((c & 0x0f) << 12) | ((buf[i + 1]! & 0x3f) << 6) | (buf[i + 2]! & 0x3f));
      i += 3;
    } else {
      const cp =
        (((c & 0x07) << 18) |
          ((buf[i + 1]! & 0x3f) << 12) |
          ((buf[i + 2]! & 0x3f) << 6) |
          (buf[i + 3]! & 0x3f)) -
        0x10000;
      codes.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      i += 4;
    }
    if (codes.length >= 4096) {
      out += String.fromCharCode(...codes);
      codes.length = 0;
    }
  }
  return out + String.fromCharCode(...codes);
}
