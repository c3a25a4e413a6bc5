// Reads what a contract needs from one Java class file (JVM spec chapter 4): names, access flags,
// fields, methods with their descriptors, generic `Signature`s, declared exceptions and, when the
// class was compiled with `-parameters`, the parameter names. Code and annotations are skipped.

export const ACC_PUBLIC = 0x0001;
export const ACC_STATIC = 0x0008;
export const ACC_TRANSIENT = 0x0080;
export const ACC_SYNTHETIC = 0x1000;
export const ACC_BRIDGE = 0x0040;
export const ACC_INTERFACE = 0x0200;
export const ACC_ABSTRACT = 0x0400;
export const ACC_ANNOTATION = 0x2000;
export const ACC_ENUM = 0x4000;

interface ClassMember {
  readonly access: number;
  readonly name: string;
  /** The erased JVM descriptor: `I`, `Ljava/util/List;`, `(Ljava/lang/String;)V`. */
  readonly descriptor: string;
  /** The generic signature when the source had generics: `Ljava/util/List<Lcom/foo/User;>;`. */
  readonly signature?: string;
  /** Binary names (`com.foo.NotFound`) of the `throws` clause; methods only. */
  readonly exceptions: readonly string[];
  /** Parameter names from a `MethodParameters` attribute (javac `-parameters`); methods only. */
  readonly parameterNames?: readonly string[];
}

export interface ClassFile {
  readonly access: number;
  /** The binary name, `com.foo.User` or `com.foo.Outer$Inner`. */
  readonly name: string;
  readonly superName?: string;
  readonly interfaces: readonly string[];
  readonly signature?: string;
  readonly fields: readonly ClassMember[];
  readonly methods: readonly ClassMember[];
}

class ClassFormatError extends Error {
  override name = "ClassFormatError";
}

type Constant = string | number | undefined;

/** A cursor over the class file's big-endian bytes; every read is bounds-checked by Buffer. */
class Reader {
  at = 0;
  constructor(readonly bytes: Buffer) {}
  u1(): number {
    return this.bytes.readUInt8(this.at++);
  }
  u2(): number {
    const value = this.bytes.readUInt16BE(this.at);
    this.at += 2;
    return value;
  }
  u4(): number {
    const value = this.bytes.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }
  skip(n: number): void {
    this.at += n;
  }
}

/** Bytes each non-UTF-8 constant occupies after its tag. */
const CONSTANT_SIZES: Readonly<Record<number, number>> = {
  3: 4, // Integer
  4: 4, // Float
  9: 4, // Fieldref
  10: 4, // Methodref
  11: 4, // InterfaceMethodref
  12: 4, // NameAndType
  15: 3, // MethodHandle
  16: 2, // MethodType
  17: 4, // Dynamic
  18: 4, // InvokeDynamic
};
const CONSTANT_UTF8 = 1;
const CONSTANT_LONG = 5;
const CONSTANT_DOUBLE = 6;
const CONSTANT_CLASS = 7;
const CONSTANT_STRING = 8;
const CONSTANT_MODULE = 19;
const CONSTANT_PACKAGE = 20;

/**
 * The constant pool: UTF-8 entries as strings, Class entries as the index of their name (a
 * number), the rest as undefined. Java's "modified UTF-8" equals UTF-8 for the names of a contract.
 */
function readConstantPool(r: Reader, where: string): Constant[] {
  const count = r.u2();
  const pool: Constant[] = [undefined];
  for (let i = 1; i < count; i++) {
    const tag = r.u1();
    if (tag === CONSTANT_UTF8) {
      const length = r.u2();
      pool.push(r.bytes.toString("utf8", r.at, r.at + length));
      r.skip(length);
    } else if (tag === CONSTANT_CLASS) {
      pool.push(r.u2());
    } else if (tag === CONSTANT_STRING || tag === CONSTANT_MODULE || tag === CONSTANT_PACKAGE) {
      r.skip(2);
      pool.push(undefined);
    } else if (tag === CONSTANT_LONG || tag === CONSTANT_DOUBLE) {
      r.skip(8);
      pool.push(undefined, undefined); // a long or double takes two slots
      i++;
    } else {
      const size = CONSTANT_SIZES[tag];
      if (size === undefined)
        throw new ClassFormatError(`${where}: unknown constant pool tag ${tag} at entry ${i}`);
      r.skip(size);
      pool.push(undefined);
    }
  }
  return pool;
}

export function parseClassFile(bytes: Buffer, where: string): ClassFile {
  try {
    return parse(new Reader(bytes), where);
  } catch (error) {
    if (error instanceof ClassFormatError) throw error;
    throw new ClassFormatError(`${where} is truncated or damaged (${(error as Error).message})`);
  }
}

function parse(r: Reader, where: string): ClassFile {
  if (r.u4() !== 0xcafebabe) throw new ClassFormatError(`${where} is not a Java class file (no 0xCAFEBABE)`);
  r.skip(4); // minor and major version: every version's layout of what we read is the same
  const pool = readConstantPool(r, where);
  const utf8 = (index: number): string => {
    const value = pool[index];
    if (typeof value !== "string")
      throw new ClassFormatError(`${where}: constant ${index} is not a UTF-8 entry`);
    return value;
  };
  const className = (index: number): string => {
    const nameIndex = pool[index];
    if (typeof nameIndex !== "number")
      throw new ClassFormatError(`${where}: constant ${index} is not a class`);
    return utf8(nameIndex).replaceAll("/", ".");
  };
  const access = r.u2();
  const name = className(r.u2());
  const superIndex = r.u2();
  const interfaces = Array.from({ length: r.u2() }, () => className(r.u2()));
  const readMembers = (): ClassMember[] =>
    Array.from({ length: r.u2() }, () => {
      const memberAccess = r.u2();
      const memberName = utf8(r.u2());
      const descriptor = utf8(r.u2());
      const attributes = readAttributes(r, utf8, className);
      return {
        access: memberAccess,
        name: memberName,
        descriptor,
        exceptions: attributes.exceptions ?? [],
        ...(attributes.signature === undefined ? {} : { signature: attributes.signature }),
        ...(attributes.parameterNames === undefined ? {} : { parameterNames: attributes.parameterNames }),
      };
    });
  const fields = readMembers();
  const methods = readMembers();
  const { signature } = readAttributes(r, utf8, className);
  return {
    access,
    name,
    ...(superIndex === 0 ? {} : { superName: className(superIndex) }),
    interfaces,
    ...(signature === undefined ? {} : { signature }),
    fields,
    methods,
  };
}

interface Attributes {
  signature?: string;
  exceptions?: string[];
  parameterNames?: string[];
}

function readAttributes(
  r: Reader,
  utf8: (i: number) => string,
  className: (i: number) => string,
): Attributes {
  const out: Attributes = {};
  const count = r.u2();
  for (let i = 0; i < count; i++) {
    const attribute = utf8(r.u2());
    const length = r.u4();
    const end = r.at + length;
    if (attribute === "Signature") {
      out.signature = utf8(r.u2());
    } else if (attribute === "Exceptions") {
      out.exceptions = Array.from({ length: r.u2() }, () => className(r.u2()));
    } else if (attribute === "MethodParameters") {
      out.parameterNames = Array.from({ length: r.u1() }, () => {
        const nameIndex = r.u2();
        r.skip(2); // access flags
        return nameIndex === 0 ? "" : utf8(nameIndex);
      });
    }
    r.at = end;
  }
  return out;
}
