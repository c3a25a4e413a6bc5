import { type JavaType, java } from "../../core/index.js";
import { dataLoss } from "./errors.js";
import { InputBuffer } from "./input-buffer.js";
import { type Hessian2Options, type ResolvedHessian2Options, resolveHessian2Options } from "./options.js";

export function tagName(tag: number): string {
  return `0x${tag.toString(16).padStart(2, "0")}`;
}

/**
 * The scalar layer of the Hessian 2 reader: ints and longs (as numbers or bigints per `longMode`),
 * counts, and chunked strings and binaries, each checked against the bytes left and `maxBytes`.
 */
export class ScalarReader extends InputBuffer {
  protected readonly options: ResolvedHessian2Options;
  /**
   * The Java type of the value just read when no declared type says it and its JS value would
   * re-encode as another type (a Long read as a number); the container reading it records it.
   */
  protected wireType: JavaType | undefined = undefined;

  constructor(bytes: Uint8Array, options?: Hessian2Options, offset = 0) {
    super(bytes, offset);
    this.options = resolveHessian2Options(options);
  }

  // ---- numbers -------------------------------------------------------------------------------

  /**
   * How a long read for `t` decodes: a contract's `java.long` / `java.longBig` chose `number` or
   * `bigint` (what its TypeScript type says); an undeclared long follows `longMode`.
   */
  private longModeFor(t: JavaType | undefined): "auto" | "bigint" | "number" {
    if (t?.longAs === "bigint") return "bigint";
    // A declared number long is exact or fails; only an explicit `number` mode accepts the rounding.
    if (t?.longAs === "number") return this.options.longMode === "number" ? "number" : "auto";
    return this.options.longMode;
  }

  protected intResult(v: number, t: JavaType | undefined): unknown {
    if (t !== undefined && t.kind === "long" && this.longModeFor(t) === "bigint") return BigInt(v);
    return v;
  }

  protected longResult(v: number, t: JavaType | undefined): unknown {
    const untyped = t === undefined || t.kind === "object";
    if (this.longModeFor(t) === "bigint" && (untyped || t.kind === "long")) return BigInt(v);
    if (untyped) this.wireType = java.Long;
    return v;
  }

  /** A double whose value is integral would re-encode as an int or long without its type. */
  protected doubleResult(v: number, t: JavaType | undefined): number {
    if ((t === undefined || t.kind === "object") && Number.isInteger(v)) this.wireType = java.Double;
    return v;
  }

  protected readLong64(t: JavaType | undefined): unknown {
    this.need(8, "long");
    const hi = this.buf.readInt32BE(this.pos);
    const mode = this.longModeFor(t);
    const narrow = t !== undefined && t.kind !== "long" && t.kind !== "object";
    if (mode === "bigint" && !narrow) {
      const big = this.buf.readBigInt64BE(this.pos);
      this.pos += 8;
      return big;
    }
    const lo = this.buf.readUInt32BE(this.pos + 4);
    const v = hi * 4294967296 + lo;
    if (mode === "number" || narrow || (hi >= -2097152 && (hi < 2097152 || (hi === 2097152 && lo === 0)))) {
      this.pos += 8;
      if (t === undefined || t.kind === "object") this.wireType = java.Long;
      return v;
    }
    const big = this.buf.readBigInt64BE(this.pos);
    if (t?.longAs === "number") {
      throw dataLoss(
        this.pos,
        `the Java long ${big} does not fit a JavaScript number exactly; declare it java.longBig (or java.LongBig) in the contract to receive a bigint`,
      );
    }
    this.pos += 8;
    return big;
  }

  /** An int that counts something (length, index): must be a non-negative int in any int form. */
  protected readLength(what: string): number {
    const at = this.pos;
    const tag = this.u8(what);
    let v: number;
    if (tag >= 0x80 && tag < 0xc0) v = tag - 0x90;
    else if (tag >= 0xc0 && tag < 0xd0) v = ((tag - 0xc8) << 8) | this.u8(what);
    else if (tag >= 0xd0 && tag < 0xd8) v = ((tag - 0xd4) << 16) | this.u16(what);
    else if (tag === 0x49) v = this.i32(what);
    else throw dataLoss(at, `expected an int for the ${what}, found tag ${tagName(tag)}`);
    if (v < 0) throw dataLoss(at, `negative ${what} ${v}`);
    return v;
  }

  /** A claimed element count must fit in the bytes left (every element takes one) and in maxBytes. */
  protected checkCount(count: number, what: string): void {
    if (count > this.end - this.pos || count > this.options.maxBytes) {
      throw dataLoss(
        this.pos,
        `${what} claims ${count} elements but only ${this.end - this.pos} bytes remain (limit maxBytes ${this.options.maxBytes})`,
      );
    }
  }

  protected checkSize(len: number, what: string): number {
    if (len > this.options.maxBytes)
      throw dataLoss(this.pos, `${what} longer than maxBytes (${this.options.maxBytes})`);
    return len;
  }

  // ---- strings and binary --------------------------------------------------------------------

  protected readChunkedString(tag: number): string {
    let text = "";
    let total = 0;
    for (;;) {
      let len: number;
      if (tag === 0x52 || tag === 0x53) len = this.u16("string length");
      else if (tag < 0x20) len = tag;
      else if (tag >= 0x30 && tag < 0x34) len = ((tag - 0x30) << 8) | this.u8("string length");
      else throw dataLoss(this.pos - 1, `expected a string chunk, found tag ${tagName(tag)}`);
      total += len;
      if (total > this.options.maxBytes)
        throw dataLoss(this.pos, `string longer than maxBytes (${this.options.maxBytes})`);
      text += this.readChars(len);
      if (tag !== 0x52) return text;
      tag = this.u8("next string chunk");
    }
  }

  protected readBinary(len: number): Buffer {
    this.need(len, "binary");
    const out = Buffer.allocUnsafe(len);
    this.buf.copy(out, 0, this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  protected readChunkedBinary(tag: number): Buffer {
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      let len: number;
      if (tag === 0x41 || tag === 0x42) len = this.u16("binary length");
      else if (tag >= 0x20 && tag < 0x30) len = tag - 0x20;
      else if (tag >= 0x34 && tag < 0x38) len = ((tag - 0x34) << 8) | this.u8("binary length");
      else throw dataLoss(this.pos - 1, `expected a binary chunk, found tag ${tagName(tag)}`);
      total += len;
      if (total > this.options.maxBytes)
        throw dataLoss(this.pos, `binary longer than maxBytes (${this.options.maxBytes})`);
      this.need(len, "binary chunk");
      parts.push(this.buf.subarray(this.pos, this.pos + len));
      this.pos += len;
      if (tag !== 0x41) return Buffer.concat(parts, total);
      tag = this.u8("next binary chunk");
    }
  }

  /** A string in any string form where the grammar allows nothing else (class and field names). */
  protected readName(what: string): string {
    const at = this.pos;
    const tag = this.u8(what);
    if (tag < 0x20) return this.readChars(tag);
    if ((tag >= 0x30 && tag < 0x34) || tag === 0x52 || tag === 0x53) return this.readChunkedString(tag);
    throw dataLoss(at, `expected a string for the ${what}, found tag ${tagName(tag)}`);
  }
}
