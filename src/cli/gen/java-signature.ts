// Parses JVM descriptors and generic signatures (JVM spec 4.7.9.1) into type trees. A descriptor
// is a signature without generics, so one parser reads both.

/** A Java type as a class file spells it. */
export type TypeRef =
  | { readonly sort: "base"; readonly code: string }
  | { readonly sort: "class"; readonly name: string; readonly args: readonly TypeRef[] }
  | { readonly sort: "array"; readonly element: TypeRef }
  | { readonly sort: "var"; readonly name: string }
  /** A wildcard without an upper bound (`?`, `? super X`): only Object is known of it. */
  | { readonly sort: "any" }
  /**
   * A type variable a subinterface binds (`FooService extends BaseService<Foo, Long>`): values are
   * of `type`, while Java dispatches on the variable's erasure, which the descriptor keeps.
   */
  | { readonly sort: "bound"; readonly type: TypeRef; readonly erasure: TypeRef };

export interface MethodSignature {
  /** Bounds of the method's own type parameters, by name. */
  readonly typeParameters: ReadonlyMap<string, TypeRef>;
  readonly parameters: readonly TypeRef[];
  readonly returns: TypeRef;
}

export const OBJECT: TypeRef = { sort: "class", name: "java.lang.Object", args: [] };

class SignatureReader {
  at = 0;
  constructor(readonly text: string) {}

  fail(expected: string): never {
    throw new TypeError(`bad Java signature "${this.text}" at ${this.at}: expected ${expected}`);
  }

  peek(): string {
    return this.text[this.at] ?? "";
  }

  expect(char: string): void {
    if (this.text[this.at] !== char) this.fail(`"${char}"`);
    this.at++;
  }

  identifier(stops: string): string {
    const start = this.at;
    while (this.at < this.text.length && !stops.includes(this.text[this.at]!)) this.at++;
    if (this.at === start) this.fail("an identifier");
    return this.text.slice(start, this.at);
  }

  type(): TypeRef {
    const c = this.peek();
    if ("BCDFIJSZV".includes(c) && c !== "") {
      this.at++;
      return { sort: "base", code: c };
    }
    if (c === "[") {
      this.at++;
      return { sort: "array", element: this.type() };
    }
    if (c === "T") {
      this.at++;
      const name = this.identifier(";");
      this.expect(";");
      return { sort: "var", name };
    }
    if (c === "L") return this.classType();
    return this.fail("a type");
  }

  classType(): TypeRef {
    this.expect("L");
    let name = this.identifier("<.;").replaceAll("/", ".");
    let args = this.typeArguments();
    // `Outer<T>.Inner<U>`: the binary name joins with `$`; the innermost arguments are the type's.
    while (this.peek() === ".") {
      this.at++;
      name = `${name}$${this.identifier("<.;")}`;
      args = this.typeArguments();
    }
    this.expect(";");
    return { sort: "class", name, args };
  }

  typeArguments(): TypeRef[] {
    if (this.peek() !== "<") return [];
    this.at++;
    const args: TypeRef[] = [];
    while (this.peek() !== ">") {
      const c = this.peek();
      if (c === "*") {
        this.at++;
        args.push({ sort: "any" });
      } else if (c === "-") {
        this.at++;
        this.type();
        args.push({ sort: "any" });
      } else {
        if (c === "+") this.at++;
        args.push(this.type());
      }
    }
    this.at++;
    return args;
  }

  /** `<T:Ljava/lang/Object;U::Ljava/lang/Comparable<TU;>;>`: each parameter's first bound. */
  typeParameters(): Map<string, TypeRef> {
    const bounds = new Map<string, TypeRef>();
    if (this.peek() !== "<") return bounds;
    this.at++;
    while (this.peek() !== ">") {
      const name = this.identifier(":");
      let bound: TypeRef | undefined;
      while (this.peek() === ":") {
        this.at++;
        if (this.peek() === ":") continue; // an empty class bound: an interface bound follows
        const next = this.type();
        bound ??= next;
      }
      bounds.set(name, bound ?? OBJECT);
    }
    this.at++;
    return bounds;
  }

  end(): void {
    if (this.at !== this.text.length) this.fail("the end");
  }
}

/** A field's type, from its signature when it has one, else its descriptor. */
export function parseFieldType(signatureOrDescriptor: string): TypeRef {
  const reader = new SignatureReader(signatureOrDescriptor);
  const type = reader.type();
  reader.end();
  return type;
}

/** A method's type parameters, parameter types and return type; `throws` parts are not needed. */
export function parseMethodSignature(signatureOrDescriptor: string): MethodSignature {
  const reader = new SignatureReader(signatureOrDescriptor);
  const typeParameters = reader.typeParameters();
  reader.expect("(");
  const parameters: TypeRef[] = [];
  while (reader.peek() !== ")") parameters.push(reader.type());
  reader.at++;
  return { typeParameters, parameters, returns: reader.type() };
}

/**
 * The superinterfaces a class signature names, with their type arguments
 * (`<T:…>Ljava/lang/Object;Lcom/foo/Base<TT;Ljava/lang/Long;>;` → `com.foo.Base<T, Long>`).
 */
export function parseSuperInterfaces(signature: string | undefined): TypeRef[] {
  if (signature === undefined) return [];
  const reader = new SignatureReader(signature);
  reader.typeParameters();
  reader.classType();
  const interfaces: TypeRef[] = [];
  while (reader.peek() === "L") interfaces.push(reader.classType());
  reader.end();
  return interfaces;
}

/** `type` with the variables `bindings` names replaced by what they are bound to. */
export function substitute(type: TypeRef, bindings: ReadonlyMap<string, TypeRef>): TypeRef {
  if (bindings.size === 0) return type;
  switch (type.sort) {
    case "var":
      return bindings.get(type.name) ?? type;
    case "class":
      return type.args.length === 0 ? type : { ...type, args: type.args.map((a) => substitute(a, bindings)) };
    case "array":
      return { sort: "array", element: substitute(type.element, bindings) };
    default:
      return type;
  }
}

/** A class's own type parameters (`<T:...>` before its superclass), by name. */
export function parseClassTypeParameters(signature: string | undefined): Map<string, TypeRef> {
  if (signature === undefined) return new Map();
  return new SignatureReader(signature).typeParameters();
}
