import { type JavaType, RpcError } from "../../core/index.js";
import { type ClassDef, createClassDef, fieldTypesOf, Special, sharedClassDef } from "./class-def.js";
import { dataLoss } from "./errors.js";
import { InputBuffer } from "./input-buffer.js";
import { javaPrototype, markClass, setField } from "./java-object.js";
import { fromTimeHandle } from "./java-time.js";
import { fromBigIntegerFields, toBizError } from "./java-values.js";
import {
  type Hessian2Options,
  type HessianClass,
  type ResolvedHessian2Options,
  resolveHessian2Options,
} from "./options.js";

function tagName(tag: number): string {
  return `0x${tag.toString(16).padStart(2, "0")}`;
}

/**
 * Hessian 2 decoder for one frame body. Self-describing; a JavaType only refines the result
 * (longs per `longMode`, enums as their constant name, sets as `Set`, fields of a described class).
 */
export class Hessian2Reader extends InputBuffer {
  private readonly options: ResolvedHessian2Options;
  private readonly refs: unknown[] = [];
  private readonly classDefs: ClassDef[] = [];
  /** The registered TS class of each class definition, when `classes` is not empty. */
  private readonly registered: (HessianClass | undefined)[] = [];
  private readonly types: string[] = [];
  private depth = 0;

  constructor(bytes: Uint8Array, options?: Hessian2Options, offset = 0) {
    super(bytes, offset);
    this.options = resolveHessian2Options(options);
  }

  readValue(type?: JavaType): unknown {
    try {
      return this.read(type);
    } catch (error) {
      this.depth = 0;
      if (error instanceof RpcError) throw error;
      const reason = error instanceof RangeError ? "input nests too deeply" : String(error);
      throw dataLoss(this.pos, `${reason}; lower the nesting or option maxDepth`);
    }
  }

  private read(t: JavaType | undefined): unknown {
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
        return v;
      }
      case 0x5b:
        return 0;
      case 0x5c:
        return 1;
      case 0x5d: {
        const b = this.u8("double byte");
        return b > 127 ? b - 256 : b;
      }
      case 0x5e: {
        const s = this.u16("double short");
        return s > 32767 ? s - 65536 : s;
      }
      case 0x5f:
        return 0.001 * this.i32("double mill");
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
      case 0x51: {
        const index = this.readLength("reference");
        if (index >= this.refs.length) {
          throw dataLoss(
            this.pos,
            `reference #${index} out of range (${this.refs.length} objects read so far)`,
          );
        }
        return this.refs[index];
      }
      default:
        throw dataLoss(this.pos - 1, `unexpected tag ${tagName(tag)} where a value was expected`);
    }
  }

  // ---- numbers -------------------------------------------------------------------------------

  private intResult(v: number, t: JavaType | undefined): unknown {
    if (t !== undefined && t.kind === "long" && this.options.longMode === "bigint") return BigInt(v);
    return v;
  }

  private longResult(v: number, t: JavaType | undefined): unknown {
    if (this.options.longMode === "bigint" && (t === undefined || t.kind === "long" || t.kind === "object")) {
      return BigInt(v);
    }
    return v;
  }

  private readLong64(t: JavaType | undefined): unknown {
    this.need(8, "long");
    const hi = this.buf.readInt32BE(this.pos);
    const mode = this.options.longMode;
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
      return v;
    }
    const big = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return big;
  }

  /** An int that counts something (length, index): must be a non-negative int in any int form. */
  private readLength(what: string): number {
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
  private checkCount(count: number, what: string): void {
    if (count > this.end - this.pos || count > this.options.maxBytes) {
      throw dataLoss(
        this.pos,
        `${what} claims ${count} elements but only ${this.end - this.pos} bytes remain (limit maxBytes ${this.options.maxBytes})`,
      );
    }
  }

  private checkSize(len: number, what: string): number {
    if (len > this.options.maxBytes)
      throw dataLoss(this.pos, `${what} longer than maxBytes (${this.options.maxBytes})`);
    return len;
  }

  // ---- strings and binary --------------------------------------------------------------------

  private readChunkedString(tag: number): string {
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

  private readBinary(len: number): Buffer {
    this.need(len, "binary");
    const out = Buffer.allocUnsafe(len);
    this.buf.copy(out, 0, this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  private readChunkedBinary(tag: number): Buffer {
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

  // ---- type table, class definitions ----------------------------------------------------------

  /** A list or map type: a string (added to the type table) or an int index into it. */
  private readType(): string {
    const at = this.pos;
    const tag = this.u8("type");
    if (tag < 0x20 || (tag >= 0x30 && tag < 0x34) || tag === 0x52 || tag === 0x53) {
      const name = tag < 0x20 ? this.readChars(tag) : this.readChunkedString(tag);
      this.types.push(name);
      return name;
    }
    this.pos = at;
    const index = this.readLength("type reference");
    const name = this.types[index];
    if (name === undefined)
      throw dataLoss(at, `type reference #${index} out of range (${this.types.length} types defined)`);
    return name;
  }

  private readName(what: string): string {
    const at = this.pos;
    const tag = this.u8(what);
    if (tag < 0x20) return this.readChars(tag);
    if ((tag >= 0x30 && tag < 0x34) || tag === 0x52 || tag === 0x53) return this.readChunkedString(tag);
    throw dataLoss(at, `expected a string for the ${what}, found tag ${tagName(tag)}`);
  }

  private readClassDef(): void {
    const name = this.readName("class name");
    const known = sharedClassDef(name);
    if (known !== undefined && this.skipBytes(known.tail)) {
      this.classDefs.push(known);
      if (this.options.classes.size > 0) this.registered.push(this.options.classes.get(name));
      return;
    }
    const tailStart = this.pos;
    const count = this.readLength("class field count");
    this.checkCount(count, `class ${name}`);
    // While the names match a definition seen before, no field array is built.
    let fields: string[] | null = known !== undefined && known.fields.length === count ? null : [];
    for (let i = 0; i < count; i++) {
      const field = this.readName(`field name of class ${name}`);
      if (fields === null) {
        if (field === known!.fields[i]) continue;
        fields = known!.fields.slice(0, i);
      }
      fields.push(field);
    }
    this.classDefs.push(
      fields === null ? known! : createClassDef(name, fields, this.buf.subarray(tailStart, this.pos)),
    );
    if (this.options.classes.size > 0) this.registered.push(this.options.classes.get(name));
  }

  // ---- containers ----------------------------------------------------------------------------

  private enter(): void {
    if (++this.depth > this.options.maxDepth) {
      throw dataLoss(
        this.pos,
        `nesting deeper than maxDepth (${this.options.maxDepth}); raise option maxDepth`,
      );
    }
  }

  private readList(length: number, typeName: string | null, t: JavaType | undefined): unknown {
    this.enter();
    if (length >= 0) this.checkCount(length, "list");
    const element = t?.element;
    if (t !== undefined && t.kind === "set") {
      const set = new Set<unknown>();
      if (typeName !== null) markClass(set, typeName);
      this.refs.push(set);
      if (length >= 0) for (let i = 0; i < length; i++) set.add(this.read(element));
      else while (!this.atEnd()) set.add(this.read(element));
      this.depth--;
      return set;
    }
    // A known length (checked against the bytes left) sizes the array once.
    const list: unknown[] = length > 0 ? new Array(length) : [];
    if (typeName !== null) markClass(list, typeName);
    this.refs.push(list);
    if (length >= 0) for (let i = 0; i < length; i++) list[i] = this.read(element);
    else while (!this.atEnd()) list.push(this.read(element));
    this.depth--;
    return list;
  }

  /** Consumes the `Z` that ends a variable list or a map. */
  private atEnd(): boolean {
    if (this.pos >= this.end) throw dataLoss(this.pos, "truncated: list or map has no end marker Z");
    if (this.buf[this.pos] !== 0x5a) return false;
    this.pos++;
    return true;
  }

  private readMap(typeName: string | null, t: JavaType | undefined): unknown {
    this.enter();
    if (t !== undefined && t.kind === "class") {
      // A Java object written as a map (Hessian 1 style): fields by name.
      const obj = Object.create(javaPrototype(typeName ?? t.name)) as Record<string, unknown>;
      this.refs.push(obj);
      while (!this.atEnd()) {
        const key = String(this.read(undefined));
        const declared = t.fields;
        setField(
          obj,
          key,
          this.read(declared !== undefined && Object.hasOwn(declared, key) ? declared[key] : undefined),
        );
      }
      this.depth--;
      return obj;
    }
    const map = new Map<unknown, unknown>();
    if (typeName !== null) markClass(map, typeName);
    this.refs.push(map);
    const keyType = t?.key;
    const valueType = t?.value;
    while (!this.atEnd()) {
      const key = this.read(keyType);
      map.set(key, this.read(valueType));
    }
    this.depth--;
    return map;
  }

  private readObject(index: number, t: JavaType | undefined): unknown {
    const def = this.classDefs[index];
    if (def === undefined) {
      throw dataLoss(
        this.pos,
        `object refers to class definition #${index}, but only ${this.classDefs.length} are defined`,
      );
    }
    this.enter();
    const refIndex = this.refs.length;
    const registered = this.registered.length === 0 ? undefined : this.registered[index];
    const instance = registered === undefined ? Object.create(def.proto) : new registered();
    const obj = instance as Record<string, unknown>;
    this.refs.push(obj);
    const fieldTypes = fieldTypesOf(def, t);
    const fields = def.fields;
    const n = fields.length;
    if (def.unsafeNames) {
      for (let i = 0; i < n; i++) setField(obj, fields[i]!, this.read(fieldTypes?.[i]));
    } else if (fieldTypes === undefined) {
      for (let i = 0; i < n; i++) obj[fields[i]!] = this.read(undefined);
    } else {
      for (let i = 0; i < n; i++) obj[fields[i]!] = this.read(fieldTypes[i]);
    }
    this.depth--;
    let result: unknown = obj;
    if (def.special !== Special.None && registered === undefined) result = this.convertSpecial(def, obj);
    else if (t !== undefined && t.kind === "enum" && typeof obj.name === "string") result = obj.name;
    if (result !== obj) this.refs[refIndex] = result;
    return result;
  }

  private convertSpecial(def: ClassDef, obj: Record<string, unknown>): unknown {
    switch (def.special) {
      case Special.BigDecimal:
        return typeof obj.value === "string" ? obj.value : obj;
      case Special.BigInteger:
        return fromBigIntegerFields(obj);
      case Special.Time:
        return fromTimeHandle(def.name, obj) ?? obj;
      case Special.Throwable:
        return toBizError(def.name, obj);
      default:
        return obj;
    }
  }
}
