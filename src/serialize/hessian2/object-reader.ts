import { type JavaType, java } from "../../core/index.js";
import { BodyList } from "./body-table.js";
import {
  type ClassDef,
  createClassDef,
  enumSetOf,
  fieldTypesOf,
  Special,
  sharedClassDef,
} from "./class-def.js";
import { dataLoss } from "./errors.js";
import { GraphReader } from "./graph-reader.js";
import { setField } from "./java-object.js";
import { fromTimeHandle, timeTypeOfHandle } from "./java-time.js";
import { fromBigIntegerFields, toBizError } from "./java-values.js";
import type { HessianClass } from "./options.js";

/**
 * Class definitions and the objects that use them: a plain object on the class's prototype, an
 * instance of a registered TS class, or the JS value a special Java class stands for (BigDecimal,
 * BigInteger, java.time, Throwable, hessian-lite's EnumSet).
 */
export abstract class ObjectReader extends GraphReader {
  private readonly classDefs = new BodyList<ClassDef>();
  /** The registered TS class of each class definition, when `classes` is not empty. */
  private readonly registered = new BodyList<HessianClass | undefined>();

  protected override forgetBody(): void {
    super.forgetBody();
    this.classDefs.clear();
    this.registered.clear();
  }

  protected readClassDef(): void {
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

  protected readObject(index: number, t: JavaType | undefined): unknown {
    const def = this.classDefs.at(index);
    if (def === undefined) {
      throw dataLoss(
        this.pos,
        `object refers to class definition #${index}, but only ${this.classDefs.length} are defined`,
      );
    }
    this.enter();
    const registered = this.registered.at(index);
    const instance = registered === undefined ? Object.create(def.proto) : new registered();
    const obj = instance as Record<string, unknown>;
    const refIndex = this.refs.push(obj);
    const fieldTypes = fieldTypesOf(def, t);
    const fields = def.fields;
    const n = fields.length;
    if (def.unsafeNames) {
      for (let i = 0; i < n; i++) {
        setField(obj, fields[i]!, this.read(fieldTypes?.[i]));
        if (this.wireType !== undefined) this.keepWireType(obj, fields[i]!);
      }
    } else if (fieldTypes === undefined) {
      for (let i = 0; i < n; i++) {
        obj[fields[i]!] = this.read(undefined);
        if (this.wireType !== undefined) this.keepWireType(obj, fields[i]!);
      }
    } else {
      for (let i = 0; i < n; i++) {
        obj[fields[i]!] = this.read(fieldTypes[i]);
        if (this.wireType !== undefined) this.keepWireType(obj, fields[i]!);
      }
    }
    this.depth--;
    let result: unknown = obj;
    if (def.special !== Special.None && registered === undefined) {
      result = convertSpecial(def, obj);
      const wireType = specialType(def);
      if (result !== obj && wireType !== undefined) {
        this.refWireTypes ??= new Map();
        this.refWireTypes.set(refIndex, wireType);
        if (t === undefined || t.kind === "object") this.wireType = wireType;
      }
    } else if (t !== undefined && t.kind === "enum" && typeof obj.name === "string") result = obj.name;
    if (result !== obj) this.refs.set(refIndex, result);
    return result;
  }
}

/** The Java type a converted special value re-encodes as only when told (a BigDecimal is a string in JS). */
function specialType(def: ClassDef): JavaType | undefined {
  switch (def.special) {
    case Special.BigDecimal:
      return java.BigDecimal;
    case Special.BigInteger:
      return java.BigInteger;
    case Special.Time:
      return timeTypeOfHandle(def.name);
    default:
      return undefined;
  }
}

function convertSpecial(def: ClassDef, obj: Record<string, unknown>): unknown {
  switch (def.special) {
    case Special.BigDecimal:
      return typeof obj.value === "string" ? obj.value : obj;
    case Special.BigInteger:
      return fromBigIntegerFields(obj);
    case Special.Time:
      return fromTimeHandle(def.name, obj) ?? obj;
    case Special.Throwable:
      return toBizError(def.name, obj);
    case Special.EnumSet:
      return enumSetOf(obj);
    default:
      return obj;
  }
}
