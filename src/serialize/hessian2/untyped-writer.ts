import { BizError, DEFAULT_EXCEPTION_CLASS, slotTypesOf } from "../../core/index.js";
import { ContainerWriter } from "./container-writer.js";
import { mismatch, withSegment } from "./errors.js";
import { hasNullMessage, STACK_FIELDS, STACK_TRACE_ELEMENT, stackFramesOf } from "./java-values.js";
import { collectionWireName } from "./type-names.js";

const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;

/** The Java class a value names with its `$class` property, if any. */
export function classOf(value: object): string | undefined {
  const cls = (value as { $class?: unknown }).$class;
  return typeof cls === "string" ? cls : undefined;
}

/**
 * Untyped JS values in their natural Hessian form: numbers as int, long or double, arrays as
 * lists, Maps and plain objects as maps, objects carrying `$class` (or of a registered TS class)
 * as beans, any Error as a Java Throwable.
 */
export abstract class UntypedWriter extends ContainerWriter {
  protected writeAny(value: unknown): void {
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

  protected writeBigLong(value: bigint): void {
    if (value < MIN_LONG || value > MAX_LONG) throw mismatch("a 64-bit long", value);
    this.writeLongBig(value);
  }

  protected writeObjectValue(value: object): void {
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

  protected writeValidDate(value: Date): void {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw mismatch("a valid Date", value);
    this.writeDate(ms);
  }

  /** A plain object carrying `$class` (or a registered TS class): its own enumerable keys are the fields. */
  private writeBean(bean: Record<string, unknown>, className: string): void {
    if (this.writeRefOrClaim(bean)) return;
    this.enter();
    const fields = Object.keys(bean);
    this.beginObject(className, fields);
    const slots = slotTypesOf(bean);
    let field = "";
    try {
      if (slots === undefined) for (field of fields) this.writeAny(bean[field]);
      else for (field of fields) this.writeMember(bean[field], undefined, slots, field);
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
    const slots = biz === undefined ? undefined : slotTypesOf(biz.fields);
    for (const key of extra) this.writeMember(biz?.fields[key], undefined, slots, key);
    if (hasNullMessage(error)) this.writeNull();
    else this.writeString(error.message);
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
}
