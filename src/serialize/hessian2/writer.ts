import { type JavaType, slotTypesOf, slotWriteType } from "../../core/index.js";
import { mismatch, toEncodeError, withSegment } from "./errors.js";
import { writeJavaTime } from "./java-time.js";
import {
  BIG_DECIMAL,
  BIG_DECIMAL_FIELDS,
  BIG_INTEGER,
  BIG_INTEGER_FIELDS,
  decimalText,
  ENUM_FIELDS,
  magnitudeWords,
  toBigInt,
} from "./java-values.js";
import { arrayWireName, beanPlanOf, collectionWireName, declaredWireName } from "./type-names.js";
import { classOf, UntypedWriter } from "./untyped-writer.js";

/**
 * Hessian 2 encoder for one frame body. Untyped JS values map to their natural Hessian form; a
 * JavaType (from the service contract) makes the bytes exactly what Java's serializer for that
 * declared type would write, so callers never hand-wrap values.
 * This file holds the entry point and the typed encoding; the layers below it are
 * untyped-writer.ts (JS values as themselves), container-writer.ts (lists, maps), graph-writer.ts
 * (references, class definitions, type table) and output-buffer.ts (bytes, scalar forms).
 * Construct with `(options?)`.
 */
export class Hessian2Writer extends UntypedWriter {
  /** Writes one value. `path` names it in errors (e.g. `args[0]`). On error nothing of this value is kept. */
  writeValue(value: unknown, type?: JavaType, path = "value"): this {
    const mark = this.mark();
    try {
      if (type === undefined) this.writeAny(value);
      else this.writeTyped(value, type);
    } catch (error) {
      this.rollback(mark);
      this.depth = 0;
      throw toEncodeError(error, path);
    }
    return this;
  }

  /** One untyped map of the entries `encoded` holds, then `record`'s (the body output's `writeMerged`). */
  writeMerged(encoded: Uint8Array, record: Readonly<Record<string, unknown>>, path = "value"): this {
    const mark = this.mark();
    try {
      this.writeMergedMap(encoded, record);
    } catch (error) {
      this.rollback(mark);
      this.depth = 0;
      throw toEncodeError(error, path);
    }
    return this;
  }

  /**
   * Writes `values[index]` as `type`, or, where `type` is absent or Object, as the Java type the
   * array recorded for that slot when it was decoded (see `Hessian2Reader.readSlot`).
   */
  writeSlot(values: readonly unknown[], index: number, type?: JavaType, path = "value"): this {
    return this.writeValue(values[index], slotWriteType(values, index, type), path);
  }

  protected writeTyped(value: unknown, type: JavaType): void {
    if (value === null || value === undefined) {
      if (type.primitive) throw mismatch(type.name, value);
      this.writeNull();
      return;
    }
    switch (type.kind) {
      case "int":
        if (typeof value === "number" && (value | 0) === value) this.writeInt(value);
        else this.writeIntegral(value, type, -2147483648, 2147483647);
        return;
      case "short":
        this.writeIntegral(value, type, -32768, 32767);
        return;
      case "byte":
        this.writeIntegral(value, type, -128, 127);
        return;
      case "long":
        if (typeof value === "number" && Number.isSafeInteger(value)) this.writeLong(value);
        else if (typeof value === "bigint") this.writeBigLong(value);
        // ±2^53 is exact (a decoded long at the edge of the safe range).
        else if (value === 2 ** 53 || value === -(2 ** 53)) this.writeBigLong(BigInt(value));
        else throw mismatch(type.name, value);
        return;
      case "double":
        if (typeof value !== "number") throw mismatch(type.name, value);
        this.writeDouble(value);
        return;
      case "float":
        if (typeof value !== "number") throw mismatch(type.name, value);
        this.writeDouble(Math.fround(value));
        return;
      case "boolean":
        if (typeof value !== "boolean") throw mismatch(type.name, value);
        this.writeBoolean(value);
        return;
      case "char":
        if (typeof value !== "string" || value.length !== 1)
          throw mismatch(`${type.name} (a 1-character string)`, value);
        this.writeString(value);
        return;
      case "string":
        if (typeof value !== "string") throw mismatch(type.name, value);
        this.writeString(value);
        return;
      case "date":
        if (value instanceof Date) this.writeValidDate(value);
        else if (typeof value === "number" && Number.isSafeInteger(value)) this.writeDate(value);
        else throw mismatch(type.name, value);
        return;
      case "bytes":
        if (!(value instanceof Uint8Array)) throw mismatch(`${type.name} (a Uint8Array)`, value);
        this.writeBinary(value);
        return;
      case "bigdecimal":
        this.writeBigDecimal(value, type);
        return;
      case "biginteger":
        this.writeBigInteger(value, type);
        return;
      case "list":
      case "set":
        this.writeCollection(value, type);
        return;
      case "map":
        this.writeTypedMap(value, type);
        return;
      case "array":
        this.writeTypedArray(value, type);
        return;
      case "enum":
        this.writeEnum(value, type);
        return;
      case "class":
        this.writeTypedBean(value, type);
        return;
      case "time":
        writeJavaTime(this, type.name, value);
        return;
      case "void":
        this.writeNull();
        return;
      default:
        this.writeAny(value);
    }
  }

  private writeIntegral(value: unknown, type: JavaType, min: number, max: number): void {
    const n = typeof value === "bigint" ? Number(value) : value;
    if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) throw mismatch(type.name, value);
    this.writeInt(n);
  }

  private writeBigDecimal(value: unknown, type: JavaType): void {
    const text = decimalText(value);
    if (text === undefined) throw mismatch(`${type.name} (decimal text like "100.06")`, value);
    this.beginObject(BIG_DECIMAL, BIG_DECIMAL_FIELDS);
    this.claimAnonymousRef();
    this.writeString(text);
  }

  private writeBigInteger(value: unknown, type: JavaType): void {
    const big = toBigInt(value);
    if (big === undefined) throw mismatch(`${type.name} (a bigint)`, value);
    this.beginObject(BIG_INTEGER, BIG_INTEGER_FIELDS);
    this.claimAnonymousRef();
    this.writeInt(big < 0n ? -1 : big > 0n ? 1 : 0);
    const words = magnitudeWords(big);
    this.claimAnonymousRef();
    this.writeListHeader(words.length, "[int");
    for (const word of words) this.writeInt(word);
  }

  private writeCollection(value: unknown, type: JavaType): void {
    const own = classOf(value as object);
    const wireName = own === undefined ? declaredWireName(type) : collectionWireName(own);
    if (Array.isArray(value)) this.writeArrayList(value, wireName, type.element);
    else if (value instanceof Set) this.writeIterable(value, wireName, type.element);
    else throw mismatch(`${type.name} (an array or Set)`, value);
  }

  private writeTypedMap(value: unknown, type: JavaType): void {
    const own = classOf(value as object);
    const wireName = own === undefined ? declaredWireName(type) : collectionWireName(own);
    if (value instanceof Map) this.writeMapEntries(value, wireName, type.key, type.value);
    else if (typeof value === "object" && !Array.isArray(value) && !(value instanceof Uint8Array))
      this.writePlainMap(value as Record<string, unknown>, wireName, type.key, type.value);
    else throw mismatch(`${type.name} (a Map or object)`, value);
  }

  private writeTypedArray(value: unknown, type: JavaType): void {
    const element = type.element;
    if (element?.kind === "byte" && element.primitive) {
      // byte[] is a Hessian binary, whatever the declaration says.
      if (value instanceof Uint8Array) this.writeBinary(value);
      else if (Array.isArray(value))
        this.writeBinary(Int8Array.from(value as number[]) as unknown as Uint8Array);
      else throw mismatch(`${type.name} (a Uint8Array)`, value);
      return;
    }
    if (element?.kind === "char" && element.primitive) {
      // Java writes char[] as a string.
      const text = Array.isArray(value) ? value.join("") : value;
      if (typeof text !== "string") throw mismatch(`${type.name} (a string)`, value);
      this.writeString(text);
      return;
    }
    if (!Array.isArray(value)) throw mismatch(`${type.name} (an array)`, value);
    this.writeArrayList(value, arrayWireName(type), element);
  }

  private writeEnum(value: unknown, type: JavaType): void {
    const name = typeof value === "string" ? value : (value as { name?: unknown }).name;
    if (typeof name !== "string" || (type.constants !== undefined && !type.constants.includes(name))) {
      const allowed = type.constants === undefined ? "" : ` (one of ${type.constants.join(", ")})`;
      throw mismatch(`${type.name}${allowed}`, value);
    }
    this.beginObject(type.name, ENUM_FIELDS);
    this.claimAnonymousRef();
    this.writeString(name);
  }

  private writeTypedBean(value: unknown, type: JavaType): void {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw mismatch(type.name, value);
    const own = classOf(value);
    if ((own !== undefined && own !== type.name) || value instanceof Error || type.fields === undefined) {
      // A subclass instance (or an undescribed class) goes as itself.
      this.writeObjectValue(value);
      return;
    }
    if (this.writeRefOrClaim(value)) return;
    this.enter();
    const { fields, types, hasObjectField } = beanPlanOf(type, type.fields);
    this.beginObject(type.name, fields);
    const bean = value as Record<string, unknown>;
    const slots = hasObjectField ? slotTypesOf(bean) : undefined;
    let i = 0;
    try {
      if (slots === undefined) for (; i < fields.length; i++) this.writeTyped(bean[fields[i]!], types[i]!);
      else for (; i < fields.length; i++) this.writeMember(bean[fields[i]!], types[i]!, slots, fields[i]!);
    } catch (error) {
      throw withSegment(error, `.${fields[i]}`);
    }
    this.depth--;
  }
}
