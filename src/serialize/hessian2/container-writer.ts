import {
  fitsSlotType,
  type JavaType,
  type SlotKey,
  type SlotTypes,
  shapeOf,
  slotTypesOf,
} from "../../core/index.js";
import { EncodePathError, withSegment } from "./errors.js";
import { GraphWriter } from "./graph-writer.js";
import { type Hessian2Options, type ResolvedHessian2Options, resolveHessian2Options } from "./options.js";

const INT_KEY = /^-?\d+$/;

/**
 * Lists, sets and maps, each element written untyped or as its declared JavaType, with the
 * nesting depth checked against `maxDepth` and the path of a failing element added to its error.
 */
export abstract class ContainerWriter extends GraphWriter {
  protected readonly options: ResolvedHessian2Options;
  protected depth = 0;

  constructor(options?: Hessian2Options) {
    super();
    this.options = resolveHessian2Options(options);
  }

  /** A JS value in its natural Hessian form. */
  protected abstract writeAny(value: unknown): void;
  /** A value exactly as Java's serializer for its declared type writes it. */
  protected abstract writeTyped(value: unknown, type: JavaType): void;

  override reset(): void {
    super.reset();
    this.depth = 0;
  }

  protected enter(): void {
    if (++this.depth > this.options.maxDepth) {
      throw new EncodePathError(
        `nesting deeper than maxDepth (${this.options.maxDepth}); raise option maxDepth`,
      );
    }
  }

  /**
   * One element or field: as the Java type its container recorded for it when nothing more
   * specific than Object is declared and the value still has the shape it was decoded with
   * (a Long decoded as a number goes back as a Long), otherwise as declared or untyped.
   */
  protected writeMember(
    value: unknown,
    declared: JavaType | undefined,
    slots: SlotTypes | undefined,
    key: SlotKey,
  ): void {
    if (slots !== undefined && (declared === undefined || declared.kind === "object")) {
      const recorded = slots.get(key);
      if (recorded !== undefined && fitsSlotType(value, recorded)) {
        this.writeTyped(value, recorded);
        return;
      }
    }
    if (declared === undefined) this.writeAny(value);
    else this.writeTyped(value, declared);
  }

  protected writeArrayList(
    list: readonly unknown[],
    typeName: string | null,
    element: JavaType | undefined,
  ): void {
    if (this.writeRefOrClaim(list)) return;
    this.enter();
    const n = list.length;
    this.writeListHeader(n, typeName);
    const slots = slotTypesOf(list);
    let i = 0;
    try {
      if (slots !== undefined) for (; i < n; i++) this.writeMember(list[i], element, slots, i);
      else if (element === undefined) for (; i < n; i++) this.writeAny(list[i]);
      else for (; i < n; i++) this.writeTyped(list[i], element);
    } catch (error) {
      throw withSegment(error, `[${i}]`);
    }
    this.depth--;
  }

  protected writeIterable(
    items: Iterable<unknown> & { size: number },
    typeName: string | null,
    element: JavaType | undefined,
  ): void {
    if (this.writeRefOrClaim(items)) return;
    this.enter();
    this.writeListHeader(items.size, typeName);
    const slots = slotTypesOf(items);
    let i = 0;
    try {
      for (const item of items) {
        this.writeMember(item, element, slots, i);
        i++;
      }
    } catch (error) {
      throw withSegment(error, `[${i}]`);
    }
    this.depth--;
  }

  protected writeMapEntries(
    map: Map<unknown, unknown>,
    typeName: string | null,
    keyType: JavaType | undefined,
    valueType: JavaType | undefined,
  ): void {
    if (this.writeRefOrClaim(map)) return;
    this.enter();
    this.writeMapHeader(typeName);
    const slots = slotTypesOf(map);
    let slot = 0;
    for (const [key, value] of map) {
      try {
        if (slots !== undefined) {
          this.writeMember(key, keyType, slots, slot);
          this.writeMember(value, valueType, slots, slot + 1);
        } else {
          if (keyType === undefined) this.writeAny(key);
          else this.writeTyped(key, keyType);
          if (valueType === undefined) this.writeAny(value);
          else this.writeTyped(value, valueType);
        }
      } catch (error) {
        throw withSegment(error, `[${keySegment(key)}]`);
      }
      slot += 2;
    }
    this.writeEnd();
    this.depth--;
  }

  protected writePlainMap(
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
        const slots = slotTypesOf(record);
        for (let i = 0; i < n; i++) {
          key = keys[i]!;
          this.writeString(key);
          if (slots === undefined) this.writeAny(record[key]);
          else this.writeMember(record[key], undefined, slots, key);
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

  /**
   * One untyped map of the entries of `encoded` (this writer's bytes for a record of scalars alone)
   * then of `record`: the bytes `writePlainMap` writes for the record merging them, when their keys
   * are distinct (the caller's promise). The encoded map is copied whole but for its closing 'Z',
   * so its 'H' opens this map: untyped map entries of scalars hold no reference or class
   * definition, so they read the same anywhere in a body.
   */
  protected writeMergedMap(encoded: Uint8Array, record: Readonly<Record<string, unknown>>): void {
    const length = encoded.length;
    if (length < 2 || encoded[0] !== 0x48 || encoded[length - 1] !== 0x5a) {
      throw new Error(
        "the encoded entries are not an untyped Hessian 2 map: encode the record alone with this serialization",
      );
    }
    this.claimAnonymousRef();
    this.enter();
    this.ensure(length);
    this.buf.set(encoded, this.pos);
    this.pos += length - 1;
    const slots = slotTypesOf(record);
    let key = "";
    try {
      for (key in record) {
        this.writeString(key);
        if (slots === undefined) this.writeAny(record[key]);
        else this.writeMember(record[key], undefined, slots, key);
      }
    } catch (error) {
      throw withSegment(error, `.${key}`);
    }
    this.writeEnd();
    this.depth--;
  }
}

/** A map key in an error path: text and numbers as themselves, anything else by its shape only. */
function keySegment(key: unknown): string {
  if (typeof key === "string") return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
  if (typeof key === "number" || typeof key === "bigint" || typeof key === "boolean") return String(key);
  return shapeOf(key);
}

function isIntegral(type: JavaType): boolean {
  return type.kind === "int" || type.kind === "long" || type.kind === "short" || type.kind === "byte";
}
