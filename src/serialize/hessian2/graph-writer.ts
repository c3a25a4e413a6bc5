import { BodyTable } from "./body-table.js";
import { OutputBuffer } from "./output-buffer.js";

interface ClassDefinition {
  readonly index: number;
  readonly fields: readonly string[];
}

/** Encoded class definitions of declared field lists, by field list then class name. */
const definitionCache = new WeakMap<readonly string[], Map<string, Buffer>>();

function sameFields(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The state one frame body shares across all its values: back-references, class definitions and
 * the type table. Each list, map and object written takes the next reference index, exactly as a
 * Java reader numbers them, even when it has no JS identity (a BigDecimal written from a string).
 */
export class GraphWriter extends OutputBuffer {
  protected readonly refs = new BodyTable<object, number>();
  protected refCount = 0;
  private readonly classDefs = new BodyTable<string, ClassDefinition>();
  private classCount = 0;
  private readonly types = new BodyTable<string, number>();
  private lastClassName = "";
  private lastFields: readonly string[] | undefined;
  private lastClassIndex = 0;

  /** Writes `Q index` and returns true when `value` was written before; otherwise claims its index. */
  protected writeRefOrClaim(value: object): boolean {
    const ref = this.refs.get(value);
    if (ref !== undefined) {
      this.writeRef(ref);
      return true;
    }
    this.refs.set(value, this.refCount++);
    return false;
  }

  /** Starts an object of `className` with these fields, defining the class on first use. Claims a ref index. */
  beginObject(className: string, fields: readonly string[]): void {
    let index: number;
    if (fields === this.lastFields && className === this.lastClassName) {
      // Runs of one class (a list of beans) skip the lookup.
      index = this.lastClassIndex;
    } else {
      let def = this.classDefs.get(className);
      if (def === undefined || !sameFields(def.fields, fields)) {
        this.writeClassDefinition(className, fields);
        def = { index: this.classCount++, fields };
        this.classDefs.set(className, def);
      }
      index = def.index;
      this.lastClassName = className;
      this.lastFields = fields;
      this.lastClassIndex = index;
    }
    if (index <= 15) {
      this.writeByte(0x60 + index);
    } else {
      this.writeByte(0x4f);
      this.writeInt(index);
    }
  }

  /** Forgets the last class used (its definition may be gone after reset or rollback). */
  private forgetLastClass(): void {
    this.lastClassName = "";
    this.lastFields = undefined;
  }

  /** `C name count field*`; the bytes of a declared (frozen) field list are cached and copied. */
  private writeClassDefinition(className: string, fields: readonly string[]): void {
    const cacheable = Object.isFrozen(fields);
    const byName = cacheable ? definitionCache.get(fields) : undefined;
    const cached = byName?.get(className);
    if (cached !== undefined) {
      this.ensure(cached.length);
      this.buf.set(cached, this.pos);
      this.pos += cached.length;
      return;
    }
    const start = this.pos - this.start;
    this.writeByte(0x43);
    this.writeString(className);
    this.writeInt(fields.length);
    for (const field of fields) this.writeString(field);
    if (cacheable) {
      const bytes = Buffer.from(this.buf.subarray(this.start + start, this.pos));
      if (byName === undefined) definitionCache.set(fields, new Map([[className, bytes]]));
      else byName.set(className, bytes);
    }
  }

  /** An object with no JS identity still takes a reference index on the reading side. */
  claimAnonymousRef(): void {
    this.refCount++;
  }

  /** List header: the compact forms for up to 7 elements, typed or untyped, as Java writes them. */
  protected writeListHeader(length: number, typeName: string | null): void {
    if (typeName === null) {
      if (length <= 7) {
        this.writeByte(0x78 + length);
      } else {
        this.writeByte(0x58);
        this.writeInt(length);
      }
    } else if (length <= 7) {
      this.writeByte(0x70 + length);
      this.writeType(typeName);
    } else {
      this.writeByte(0x56);
      this.writeType(typeName);
      this.writeInt(length);
    }
  }

  protected writeMapHeader(typeName: string | null): void {
    if (typeName === null) {
      this.writeByte(0x48);
    } else {
      this.writeByte(0x4d);
      this.writeType(typeName);
    }
  }

  protected writeEnd(): void {
    this.writeByte(0x5a);
  }

  /** A type name is written once as a string, afterwards as its index in the type table. */
  private writeType(name: string): void {
    const index = this.types.get(name);
    if (index !== undefined) {
      this.writeInt(index);
    } else {
      this.types.set(name, this.types.size);
      this.writeString(name);
    }
  }

  /** Forgets everything: the next value starts a new frame body. Keeps the grown buffer. */
  reset(): void {
    this.discardBody();
    this.refs.clear();
    this.refCount = 0;
    this.classDefs.clear();
    this.classCount = 0;
    this.types.clear();
    this.forgetLastClass();
  }

  protected mark(): WriterMark {
    return {
      length: this.length,
      refCount: this.refCount,
      classCount: this.classCount,
      typeCount: this.types.size,
    };
  }

  /** Undoes a value that failed half-way, so the body stays consistent for the values before it. */
  protected rollback(mark: WriterMark): void {
    this.pos = this.start + mark.length;
    this.refCount = mark.refCount;
    this.refs.retain((index) => index < mark.refCount);
    this.classCount = mark.classCount;
    this.forgetLastClass();
    this.classDefs.retain((def) => def.index < mark.classCount);
    this.types.retain((index) => index < mark.typeCount);
  }

  /**
   * Ends the body: returns its bytes without copying (a region of the writer's slab that it never
   * writes again, so the caller may keep it). Call reset() before writing the next body.
   */
  toBuffer(): Buffer {
    return this.takeBody();
  }
}

export interface WriterMark {
  readonly length: number;
  readonly refCount: number;
  readonly classCount: number;
  readonly typeCount: number;
}
