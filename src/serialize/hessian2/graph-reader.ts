import { type JavaType, type SlotKey, setSlotType } from "../../core/index.js";
import { BodyList } from "./body-table.js";
import { dataLoss } from "./errors.js";
import { javaPrototype, markClass, setField } from "./java-object.js";
import { ScalarReader } from "./scalar-reader.js";

/**
 * The state one frame body shares across its values (back-references, the type table, the
 * nesting depth) and the containers that fill it: lists, sets and maps. Each list, map and object
 * read takes the next reference index, as the writer numbered them.
 */
export abstract class GraphReader extends ScalarReader {
  protected readonly refs = new BodyList<unknown>();
  /**
   * The wire type of each reference whose value is a converted special (a BigDecimal's string);
   * made on the first one, since most bodies have none.
   */
  protected refWireTypes: Map<number, JavaType> | undefined = undefined;
  private readonly types = new BodyList<string>();
  protected depth = 0;

  /** Forgets what the last body defined, so this reader can read another one. */
  protected forgetBody(): void {
    this.refs.clear();
    this.types.clear();
    this.refWireTypes = undefined;
    this.depth = 0;
    this.wireType = undefined;
  }

  /** Reads one value of any form; `t` only refines it. */
  protected abstract read(t: JavaType | undefined): unknown;

  protected enter(): void {
    if (++this.depth > this.options.maxDepth) {
      throw dataLoss(
        this.pos,
        `nesting deeper than maxDepth (${this.options.maxDepth}); raise option maxDepth`,
      );
    }
  }

  /** Records the Java type of the value just read (see `wireType`) in its container's slot. */
  protected keepWireType(container: object, key: SlotKey): void {
    setSlotType(container, key, this.wireType!);
    this.wireType = undefined;
  }

  /** `Q index`: a list, map or object read earlier in this body. */
  protected readReference(): unknown {
    const index = this.readLength("reference");
    if (index >= this.refs.length) {
      throw dataLoss(this.pos, `reference #${index} out of range (${this.refs.length} objects read so far)`);
    }
    if (this.refWireTypes !== undefined) this.wireType = this.refWireTypes.get(index);
    return this.refs.at(index);
  }

  /** A list or map type: a string (added to the type table) or an int index into it. */
  protected readType(): string {
    const at = this.pos;
    const tag = this.u8("type");
    if (tag < 0x20 || (tag >= 0x30 && tag < 0x34) || tag === 0x52 || tag === 0x53) {
      const name = tag < 0x20 ? this.readChars(tag) : this.readChunkedString(tag);
      this.types.push(name);
      return name;
    }
    this.pos = at;
    const index = this.readLength("type reference");
    const name = this.types.at(index);
    if (name === undefined)
      throw dataLoss(at, `type reference #${index} out of range (${this.types.length} types defined)`);
    return name;
  }

  protected readList(length: number, typeName: string | null, t: JavaType | undefined): unknown {
    this.enter();
    if (length >= 0) this.checkCount(length, "list");
    const element = t?.element;
    if (t !== undefined && t.kind === "set") {
      const set = new Set<unknown>();
      if (typeName !== null) markClass(set, typeName);
      this.refs.push(set);
      const n = length >= 0 ? length : Number.POSITIVE_INFINITY;
      for (let i = 0; i < n && (length >= 0 || !this.atEnd()); i++) {
        set.add(this.read(element));
        if (this.wireType !== undefined) this.keepWireType(set, i);
      }
      this.depth--;
      return set;
    }
    // A known length (checked against the bytes left) sizes the array once.
    const list: unknown[] = length > 0 ? new Array(length) : [];
    if (typeName !== null) markClass(list, typeName);
    this.refs.push(list);
    if (length >= 0) {
      for (let i = 0; i < length; i++) {
        list[i] = this.read(element);
        if (this.wireType !== undefined) this.keepWireType(list, i);
      }
    } else {
      while (!this.atEnd()) {
        list.push(this.read(element));
        if (this.wireType !== undefined) this.keepWireType(list, list.length - 1);
      }
    }
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

  /** An untyped map (`H`) as a string-keyed record; undefined, nothing consumed, for any other form. */
  protected readUntypedMapRecord(): Record<string, unknown> | undefined {
    if (this.pos >= this.end || this.buf[this.pos] !== 0x48) return undefined;
    this.pos++;
    this.enter();
    const record: Record<string, unknown> = {};
    this.refs.push(record);
    while (!this.atEnd()) {
      const key = String(this.read(undefined));
      const value = this.read(undefined);
      // A record keeps no slot types (nor did the copy of a Map it replaces).
      this.wireType = undefined;
      // A hostile key never reaches the prototype.
      if (key !== "__proto__") record[key] = value;
    }
    this.depth--;
    return record;
  }

  protected readMap(typeName: string | null, t: JavaType | undefined): unknown {
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
        if (this.wireType !== undefined) this.keepWireType(obj, key);
      }
      this.depth--;
      return obj;
    }
    const map = new Map<unknown, unknown>();
    if (typeName !== null) markClass(map, typeName);
    this.refs.push(map);
    const keyType = t?.key;
    const valueType = t?.value;
    for (let slot = 0; !this.atEnd(); slot += 2) {
      const key = this.read(keyType);
      if (this.wireType !== undefined) this.keepWireType(map, slot);
      map.set(key, this.read(valueType));
      if (this.wireType !== undefined) this.keepWireType(map, slot + 1);
    }
    this.depth--;
    return map;
  }
}
