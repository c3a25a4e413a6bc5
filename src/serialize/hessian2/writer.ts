import { BizError, DEFAULT_EXCEPTION_CLASS, type JavaType } from "../../core/index.js";
import { EncodePathError, mismatch, toEncodeError, withSegment } from "./errors.js";
import { GraphWriter } from "./graph-writer.js";
import { writeJavaTime } from "./java-time.js";
import {
  BIG_DECIMAL,
  BIG_DECIMAL_FIELDS,
  BIG_INTEGER,
  BIG_INTEGER_FIELDS,
  decimalText,
  ENUM_FIELDS,
  magnitudeWords,
  STACK_FIELDS,
  STACK_TRACE_ELEMENT,
  stackFramesOf,
  toBigInt,
} from "./java-values.js";
import { type Hessian2Options, type ResolvedHessian2Options, resolveHessian2Options } from "./options.js";
import { arrayWireName, beanPlanOf, collectionWireName, declaredWireName } from "./type-names.js";

const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;
const INT_KEY = /^-?\d+$/;

function classOf(value: object): string | undefined {
  const cls = (value as { $class?: unknown }).$class;
  return typeof cls === "string" ? cls : undefined;
}

/**
 * Hessian 2 encoder for one frame body. Untyped JS values map to their natural Hessian form; a
 * JavaType (from the service contract) makes the bytes exactly what Java's serializer for that
 * declared type would write, so callers never hand-wrap values.
 */
export class Hessian2Writer extends GraphWriter {
  private readonly options: ResolvedHessian2Options;
  private depth = 0;

  constructor(options?: Hessian2Options) {
    super();
    this.options = resolveHessian2Options(options);
  }

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

  override reset(): void {
    super.reset();
    this.depth = 0;
  }

  private enter(): void {
    if (++this.depth > this.options.maxDepth) {
      throw new EncodePathError(
        `nesting deeper than maxDepth (${this.options.maxDepth}); raise option maxDepth`,
      );
    }
  }

  // ---- untyped -------------------------------------------------------------------------------

  private writeAny(value: unknown): void {
    switch (typeof value) {
      case "string":
        this.writeString(value);
        return;
      case "number":
        if ((value | 0) === value) {
          if (value !== 0 || 1 / value > 0) this.writeInt(value);
          else this.writeDouble(value); // -0 keeps its sign as a double
        } else if (Number.isSafeInteger(value)) this.writeLong(value);
        else this.writeDouble(value);
        return;
      case "boolean":
        this.writeBoolean(value);
        return;
      case "bigint":
        this.writeBigLong(value);
        return;
      case "undefined":
        this.writeNull();
        return;
      case "object":
        if (value === null) this.writeNull();
        else this.writeObjectValue(value);
        return;
      default:
        throw mismatch("a serializable value", value);
    }
  }

  private writeBigLong(value: bigint): void {
    if (value < MIN_LONG || value > MAX_LONG) throw mismatch("a 64-bit long", value);
    this.writeLongBig(value);
  }

  private writeObjectValue(value: object): void {
    if (Array.isArray(value)) {
      const cls = classOf(value);
      this.writeArrayList(value, cls === undefined ? null : collectionWireName(cls), undefined);
    } else if (value instanceof Uint8Array) {
      this.writeBinary(value);
    } else if (value instanceof Date) {
      this.writeValidDate(value);
    } else if (value instanceof Map) {
      const cls = classOf(value);
      this.writeMapEntries(value, cls === undefined ? null : collectionWireName(cls), undefined, undefined);
    } else if (value instanceof Set) {
      this.writeIterable(value, collectionWireName(classOf(value) ?? "java.util.Set"), undefined);
    } else if (value instanceof Error) {
      this.writeThrowable(value);
    } else {
      const registered = this.options.classNames.get(value.constructor as new () => object);
      const cls = registered ?? classOf(value);
      if (cls === undefined) this.writePlainMap(value as Record<string, unknown>, null, undefined, undefined);
      else this.writeBean(value as Record<string, unknown>, cls);
    }
  }

  private writeValidDate(value: Date): void {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw mismatch("a valid Date", value);
    this.writeDate(ms);
  }

  private writeArrayList(
    list: readonly unknown[],
    typeName: string | null,
    element: JavaType | undefined,
  ): void {
    if (this.writeRefOrClaim(list)) return;
    this.enter();
    const n = list.length;
    this.writeListHeader(n, typeName);
    let i = 0;
    try {
      if (element === undefined) for (; i < n; i++) this.writeAny(list[i]);
      else for (; i < n; i++) this.writeTyped(list[i], element);
    } catch (error) {
      throw withSegment(error, `[${i}]`);
    }
    this.depth--;
  }

  private writeIterable(
    items: Iterable<unknown> & { size: number },
    typeName: string | null,
    element: JavaType | undefined,
  ): void {
    if (this.writeRefOrClaim(items)) return;
    this.enter();
    this.writeListHeader(items.size, typeName);
    let i = 0;
    try {
      for (const item of items) {
        if (element === undefined) this.writeAny(item);
        else this.writeTyped(item, element);
        i++;
      }
    } catch (error) {
      throw withSegment(error, `[${i}]`);
    }
    this.depth--;
  }

  private writeMapEntries(
    map: Map<unknown, unknown>,
    typeName: string | null,
    keyType: JavaType | undefined,
    valueType: JavaType | undefined,
  ): void {
    if (this.writeRefOrClaim(map)) return;
    this.enter();
    this.writeMapHeader(typeName);
    for (const [key, value] of map) {
      try {
        if (keyType === undefined) this.writeAny(key);
        else this.writeTyped(key, keyType);
        if (valueType === undefined) this.writeAny(value);
        else this.writeTyped(value, valueType);
      } catch (error) {
        throw withSegment(error, `[${typeof key === "string" ? JSON.stringify(key) : String(key)}]`);
      }
    }
    this.writeEnd();
    this.depth--;
  }

  private writePlainMap(
    record: Record<string, unknown>,
    typeName: string | null,
    keyType: JavaType | undefined,
    valueType: JavaType | undefined,
  ): void {
    if (this.writeRefOrClaim(record)) return;
    this.enter();
    this.writeMapHeader(typeName);
    const keys = Object.keys(record);
    const n = keys.length;
    let key = "";
    try {
      if (keyType === undefined && valueType === undefined) {
        for (let i = 0; i < n; i++) {
          key = keys[i]!;
          this.writeString(key);
          this.writeAny(record[key]);
        }
      } else {
        const numericKeys = keyType !== undefined && isIntegral(keyType);
        for (let i = 0; i < n; i++) {
          key = keys[i]!;
          if (numericKeys && INT_KEY.test(key)) this.writeTyped(Number(key), keyType);
          else if (keyType === undefined) this.writeString(key);
          else this.writeTyped(key, keyType);
          const value = record[key];
          if (valueType === undefined) this.writeAny(value);
          else this.writeTyped(value, valueType);
        }
      }
    } catch (error) {
      throw withSegment(error, `.${key}`);
    }
    this.writeEnd();
    this.depth--;
  }

  /** A plain object carrying `$class` (or a registered TS class): its own enumerable keys are the fields. */
  private writeBean(bean: Record<string, unknown>, className: string): void {
    if (this.writeRefOrClaim(bean)) return;
    this.enter();
    const fields = Object.keys(bean);
    this.beginObject(className, fields);
    let field = "";
    try {
      for (field of fields) this.writeAny(bean[field]);
    } catch (error) {
      throw withSegment(error, `.${field}`);
    }
    this.depth--;
  }

  /** Any Error as a Java Throwable: Java reads its class, `getMessage()`, cause and stack trace. */
  private writeThrowable(error: Error): void {
    if (this.writeRefOrClaim(error)) return;
    this.enter();
    const biz = error instanceof BizError ? error : undefined;
    const extra = biz === undefined ? [] : Object.keys(biz.fields);
    const javaClass = biz?.javaClass ?? DEFAULT_EXCEPTION_CLASS;
    this.beginObject(javaClass, [...extra, "detailMessage", "cause", "stackTrace"]);
    for (const key of extra) this.writeAny(biz?.fields[key]);
    this.writeString(error.message);
    if (error.cause instanceof Error) this.writeThrowable(error.cause);
    else this.writeNull();
    const frames = stackFramesOf(error);
    this.claimAnonymousRef();
    this.writeListHeader(frames.length, `[${STACK_TRACE_ELEMENT}`);
    for (const frame of frames) {
      this.beginObject(STACK_TRACE_ELEMENT, STACK_FIELDS);
      this.claimAnonymousRef();
      this.writeString(frame.declaringClass);
      this.writeString(frame.methodName);
      if (frame.fileName === null) this.writeNull();
      else this.writeString(frame.fileName);
      this.writeInt(frame.lineNumber);
    }
    this.depth--;
  }

  // ---- typed ---------------------------------------------------------------------------------

  private writeTyped(value: unknown, type: JavaType): void {
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
    const { fields, types } = beanPlanOf(type, type.fields);
    this.beginObject(type.name, fields);
    const bean = value as Record<string, unknown>;
    let i = 0;
    try {
      for (; i < fields.length; i++) this.writeTyped(bean[fields[i]!], types[i]!);
    } catch (error) {
      throw withSegment(error, `.${fields[i]}`);
    }
    this.depth--;
  }
}

function isIntegral(type: JavaType): boolean {
  return type.kind === "int" || type.kind === "long" || type.kind === "short" || type.kind === "byte";
}
