import { type JavaType, RpcError, setSlotType } from "../../core/index.js";
import { dataLoss } from "./errors.js";
import { ObjectReader } from "./object-reader.js";
import { tagName } from "./scalar-reader.js";

/**
 * Hessian 2 decoder for one frame body. Self-describing; a JavaType only refines the result
 * (longs per `longMode`, enums as their constant name, sets as `Set`, fields of a described class).
 * This file holds the entry point and the tag dispatch; the forms it dispatches to live in
 * scalar-reader.ts (numbers, strings, binary), graph-reader.ts (references, lists, maps) and
 * object-reader.ts (class definitions, objects). Construct with `(bytes, options?, offset = 0)`;
 * `restart` reads the next body with the same reader.
 */
export class Hessian2Reader extends ObjectReader {
  /** Reads another body with this reader: the last body's tables are forgotten, their room kept. */
  restart(bytes: Uint8Array, offset = 0): void {
    this.forgetBody();
    this.startAt(bytes, offset);
  }

  readValue(type?: JavaType): unknown {
    try {
      const value = this.read(type);
      this.wireType = undefined;
      return value;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /**
   * Reads one value into `target[index]` and, when its JS value alone would re-encode as another
   * Java type (a Long read as a number), records the Java type in the array's slot types.
   */
  readSlot(target: unknown[], index: number, type?: JavaType): unknown {
    try {
      const value = this.read(type);
      target[index] = value;
      if (this.wireType !== undefined) {
        setSlotType(target, index, this.wireType);
        this.wireType = undefined;
      }
      return value;
    } catch (error) {
      throw this.failure(error);
    }
  }

  readRecord(): Record<string, unknown> | undefined {
    try {
      return this.readUntypedMapRecord();
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown): Error {
    this.depth = 0;
    this.wireType = undefined;
    if (error instanceof RpcError) return error;
    const reason = error instanceof RangeError ? "input nests too deeply" : String(error);
    return dataLoss(this.pos, `${reason}; lower the nesting or option maxDepth`);
  }

  protected read(t: JavaType | undefined): unknown {
    if (this.pos >= this.end) throw dataLoss(this.pos, "truncated: expected a value, input ended");
    const buf = this.buf;
    const tag = buf[this.pos++]!;
    if (tag >= 0x80) {
      if (tag < 0xc0) return this.intResult(tag - 0x90, t);
      if (tag < 0xd0) return this.intResult(((tag - 0xc8) << 8) | this.u8("int byte"), t);
      if (tag < 0xd8) return this.intResult(((tag - 0xd4) << 16) | this.u16("int short"), t);
      if (tag < 0xf0) return this.longResult(tag - 0xe0, t);
      return this.longResult(((tag - 0xf8) << 8) | this.u8("long byte"), t);
    }
    if (tag < 0x20) return this.readChars(tag);
    if (tag < 0x30) return this.readBinary(tag - 0x20);
    if (tag < 0x34)
      return this.readChars(this.checkSize(((tag - 0x30) << 8) | this.u8("string length"), "string"));
    if (tag < 0x38)
      return this.readBinary(this.checkSize(((tag - 0x34) << 8) | this.u8("binary length"), "binary"));
    if (tag < 0x40) return this.longResult(((tag - 0x3c) << 16) | this.u16("long short"), t);
    if (tag >= 0x60) {
      if (tag < 0x70) return this.readObject(tag - 0x60, t);
      if (tag < 0x78) return this.readList(tag - 0x70, this.readType(), t);
      return this.readList(tag - 0x78, null, t);
    }
    switch (tag) {
      case 0x4e:
        return null;
      case 0x54:
        return true;
      case 0x46:
        return false;
      case 0x49:
        return this.intResult(this.i32("int"), t);
      case 0x59:
        return this.longResult(this.i32("long int"), t);
      case 0x4c:
        return this.readLong64(t);
      case 0x44: {
        this.need(8, "double");
        const v = buf.readDoubleBE(this.pos);
        this.pos += 8;
        return this.doubleResult(v, t);
      }
      case 0x5b:
        return this.doubleResult(0, t);
      case 0x5c:
        return this.doubleResult(1, t);
      case 0x5d: {
        const b = this.u8("double byte");
        return this.doubleResult(b > 127 ? b - 256 : b, t);
      }
      case 0x5e: {
        const s = this.u16("double short");
        return this.doubleResult(s > 32767 ? s - 65536 : s, t);
      }
      case 0x5f:
        return this.doubleResult(0.001 * this.i32("double mill"), t);
      case 0x4a:
        return new Date(this.i64Number());
      case 0x4b:
        return new Date(this.i32("date minutes") * 60000);
      case 0x53:
      case 0x52:
        return this.readChunkedString(tag);
      case 0x42:
      case 0x41:
        return this.readChunkedBinary(tag);
      case 0x48:
        return this.readMap(null, t);
      case 0x4d:
        return this.readMap(this.readType(), t);
      case 0x55:
        return this.readList(-1, this.readType(), t);
      case 0x56: {
        const type = this.readType();
        return this.readList(this.readLength("list length"), type, t);
      }
      case 0x57:
        return this.readList(-1, null, t);
      case 0x58:
        return this.readList(this.readLength("list length"), null, t);
      case 0x43:
        this.readClassDef();
        return this.read(t);
      case 0x4f:
        return this.readObject(this.readLength("class reference"), t);
      case 0x51:
        return this.readReference();
      default:
        throw dataLoss(this.pos - 1, `unexpected tag ${tagName(tag)} where a value was expected`);
    }
  }
}
