// What a contract is made of, read from the class pool: the service interfaces (with the methods
// they inherit), and the enums and POJOs their methods carry, with inherited fields.
import {
  ACC_ABSTRACT,
  ACC_ANNOTATION,
  ACC_BRIDGE,
  ACC_ENUM,
  ACC_INTERFACE,
  ACC_PUBLIC,
  ACC_STATIC,
  ACC_SYNTHETIC,
  ACC_TRANSIENT,
  type ClassFile,
} from "./class-file.js";
import type { ClassPool } from "./class-pool.js";
import {
  parseClassTypeParameters,
  parseFieldType,
  parseMethodSignature,
  parseSuperInterfaces,
  substitute,
  type TypeRef,
} from "./java-signature.js";

interface ParameterModel {
  /** The source name when the class was compiled with `-parameters`. */
  readonly name?: string;
  readonly type: TypeRef;
}

export interface MethodModel {
  readonly javaName: string;
  readonly parameters: readonly ParameterModel[];
  readonly returns: TypeRef;
  readonly throws: readonly string[];
  /** Type variables in scope (the method's, then its interface's), with their bounds. */
  readonly bounds: ReadonlyMap<string, TypeRef>;
}

export interface ServiceModel {
  readonly javaName: string;
  readonly methods: readonly MethodModel[];
}

interface FieldModel {
  readonly name: string;
  readonly type: TypeRef;
  readonly bounds: ReadonlyMap<string, TypeRef>;
}

export type DataTypeModel =
  | { readonly kind: "enum"; readonly javaName: string; readonly constants: readonly string[] }
  | { readonly kind: "class"; readonly javaName: string; readonly fields: readonly FieldModel[] };

export interface Selection {
  /** Only interfaces of this Java package (not its subpackages). */
  readonly packageName?: string;
  /** Only this interface (a binary name). */
  readonly interfaceName?: string;
}

const packageOf = (binaryName: string): string =>
  binaryName.slice(0, Math.max(0, binaryName.lastIndexOf(".")));
const has = (access: number, flag: number): boolean => (access & flag) !== 0;

/** The public interfaces the selection names, sorted by name (annotations are not services). */
export function selectServices(pool: ClassPool, selection: Selection): ClassFile[] {
  return [...pool.values()]
    .filter(
      (c) =>
        has(c.access, ACC_INTERFACE) &&
        has(c.access, ACC_PUBLIC) &&
        !has(c.access, ACC_ANNOTATION) &&
        (selection.packageName === undefined || packageOf(c.name) === selection.packageName) &&
        (selection.interfaceName === undefined || c.name === selection.interfaceName),
    )
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * An interface's callable methods: its own, then those of its superinterfaces in the pool, each
 * signature once (a redeclaration in a subinterface wins). Static methods are not remote. A
 * superinterface's type variables take the arguments the subinterface gives them
 * (`FooService extends BaseService<Foo, Long>`: `T find(ID id)` answers a Foo and takes a Long).
 */
export function serviceModel(pool: ClassPool, service: ClassFile): ServiceModel {
  const methods: MethodModel[] = [];
  const seen = new Set<string>();
  const visit = (iface: ClassFile, bindings: ReadonlyMap<string, TypeRef>): void => {
    const classBounds = parseClassTypeParameters(iface.signature);
    for (const method of iface.methods) {
      if (method.name.startsWith("<") || has(method.access, ACC_STATIC | ACC_SYNTHETIC | ACC_BRIDGE))
        continue;
      const key = `${method.name}${method.descriptor}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const erased = parseMethodSignature(method.descriptor);
      const generic = method.signature === undefined ? erased : parseMethodSignature(method.signature);
      const bounds = new Map([...classBounds, ...generic.typeParameters]);
      // The method's own type variables shadow the interface's.
      const bound = new Map([...bindings].filter(([name]) => !generic.typeParameters.has(name)));
      methods.push({
        javaName: method.name,
        parameters: erased.parameters.map((type, i) => ({
          type: outerType(generic.parameters[i] ?? type, type, bound),
          ...(method.parameterNames?.[i] ? { name: method.parameterNames[i] } : {}),
        })),
        returns: outerType(generic.returns, erased.returns, bound),
        throws: method.exceptions,
        bounds,
      });
    }
    const supers = parseSuperInterfaces(iface.signature);
    for (const parent of iface.interfaces) {
      const superInterface = pool.get(parent);
      if (superInterface === undefined) continue;
      const given = supers.find((t) => t.sort === "class" && t.name === parent);
      const args = given?.sort === "class" ? given.args : [];
      const names = [...parseClassTypeParameters(superInterface.signature).keys()];
      const parentBindings = new Map<string, TypeRef>();
      names.forEach((name, i) => {
        const arg = args[i];
        if (arg !== undefined) parentBindings.set(name, substitute(arg, bindings));
      });
      visit(superInterface, parentBindings);
    }
  };
  visit(service, new Map());
  return { javaName: service.name, methods };
}

/**
 * A parameter's or return's type: the generic one with the bound variables substituted; a bare
 * variable keeps its erasure from the descriptor, which Java dispatches on (as what it is bound
 * to, when the subinterface binds it).
 */
function outerType(generic: TypeRef, erased: TypeRef, bindings: ReadonlyMap<string, TypeRef>): TypeRef {
  if (generic.sort !== "var") return substitute(generic, bindings);
  const type = bindings.get(generic.name);
  return type === undefined || type.sort === "var" || type.sort === "any"
    ? erased
    : { sort: "bound", type, erasure: erased };
}

/**
 * The generic type, except that a bare type variable becomes its erasure from the descriptor: the
 * descriptor is what Java dispatches on, so the contract's outer type must be exactly it.
 */
function outerErasure(generic: TypeRef, erased: TypeRef): TypeRef {
  return generic.sort === "var" ? erased : generic;
}

/**
 * The enum or POJO of a class in the pool; undefined for interfaces, abstract classes and classes
 * outside the pool, which a contract can only name (`java.type`).
 */
export function dataTypeModel(pool: ClassPool, javaName: string): DataTypeModel | undefined {
  const cls = pool.get(javaName);
  if (cls === undefined || has(cls.access, ACC_INTERFACE | ACC_ABSTRACT)) return undefined;
  if (has(cls.access, ACC_ENUM) && cls.superName === "java.lang.Enum") {
    const constants = cls.fields.filter((f) => has(f.access, ACC_ENUM)).map((f) => f.name);
    return { kind: "enum", javaName, constants };
  }
  return { kind: "class", javaName, fields: serializedFields(pool, cls) };
}

/**
 * The fields Java's serializer writes: instance fields that are not transient, the class's own
 * first, then each superclass's in the pool (the order hessian-lite walks them); a field hidden
 * by a subclass field of the same name is written once.
 */
function serializedFields(pool: ClassPool, cls: ClassFile): FieldModel[] {
  const fields: FieldModel[] = [];
  const names = new Set<string>();
  for (let current: ClassFile | undefined = cls; current !== undefined; current = superOf(pool, current)) {
    const bounds = parseClassTypeParameters(current.signature);
    for (const field of current.fields) {
      if (has(field.access, ACC_STATIC | ACC_TRANSIENT | ACC_SYNTHETIC) || names.has(field.name)) continue;
      names.add(field.name);
      const erased = parseFieldType(field.descriptor);
      const generic = field.signature === undefined ? erased : parseFieldType(field.signature);
      fields.push({ name: field.name, type: outerErasure(generic, erased), bounds });
    }
  }
  return fields;
}

function superOf(pool: ClassPool, cls: ClassFile): ClassFile | undefined {
  return cls.superName === undefined ? undefined : pool.get(cls.superName);
}
