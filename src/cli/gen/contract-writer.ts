// Writes the TypeScript module of a contract: `java.enum` and `java.Class` declarations for the
// enums and POJOs the services carry (each before its first use), then one `defineService` per
// interface, overloads as their own entries with `javaName`.
import type { ClassFile } from "./class-file.js";
import type { ClassPool } from "./class-pool.js";
import { dataTypeModel, type MethodModel, serviceModel } from "./contract-model.js";
import type { TypeRef } from "./java-signature.js";
import { javaTypeExpression, type TypeScope, unwrapAsync } from "./java-type-expression.js";

export interface ContractModule {
  readonly text: string;
  /** Java names of the services and of the data types written. */
  readonly services: readonly string[];
  readonly dataTypes: readonly string[];
}

/** Words a TypeScript parameter may not be named that Java allows (plus our own import, `java`). */
const RESERVED_IN_TS = new Set([
  "arguments",
  "await",
  "debugger",
  "delete",
  "eval",
  "export",
  "function",
  "in",
  "java",
  "let",
  "typeof",
  "var",
  "with",
  "yield",
]);
const IMPORTED = new Set(["java", "defineService", "JavaValue"]);

const simpleName = (javaName: string): string =>
  javaName.slice(javaName.lastIndexOf(".") + 1).replaceAll("$", "_");

/** One word per parameter type for an overload's key: `sayHello(String, int)` → `sayHelloStringInt`. */
function typeWord(type: TypeRef): string {
  switch (type.sort) {
    case "base":
      return { Z: "Boolean", B: "Byte", S: "Short", I: "Int", J: "Long", F: "Float", D: "Double", C: "Char" }[
        type.code
      ] as string;
    case "array":
      return `${typeWord(type.element)}Array`;
    case "class":
      return simpleName(type.name).replaceAll("_", "");
    case "bound":
      return typeWord(type.erasure);
    default:
      return "Object";
  }
}

class ModuleWriter {
  readonly #pool: ClassPool;
  readonly #names = new Set<string>(IMPORTED);
  readonly #declared = new Map<string, string>();
  readonly #inProgress = new Set<string>();
  readonly #declarations: string[] = [];

  constructor(pool: ClassPool) {
    this.#pool = pool;
  }

  get dataTypes(): string[] {
    return [...this.#declared.keys()];
  }

  get declarations(): readonly string[] {
    return this.#declarations;
  }

  /** A free module-level name for a Java class: its simple name, else its whole name. */
  constName(javaName: string): string {
    let name = simpleName(javaName);
    if (this.#names.has(name)) name = javaName.replaceAll(/[.$]/g, "_");
    for (let i = 2; this.#names.has(name); i++) name = `${simpleName(javaName)}${i}`;
    this.#names.add(name);
    return name;
  }

  scope(bounds: ReadonlyMap<string, TypeRef>): TypeScope {
    return { bounds, declared: (javaName) => this.#declare(javaName) };
  }

  /**
   * The constant of an enum or POJO, declaring it (and what it needs) first. A POJO reached again
   * while its own fields are written (a cycle) is named with `java.type`, as `java.Class` needs
   * its fields at once.
   */
  #declare(javaName: string): string | undefined {
    const done = this.#declared.get(javaName);
    if (done !== undefined || this.#inProgress.has(javaName)) return done;
    const model = dataTypeModel(this.#pool, javaName);
    if (model === undefined) return undefined;
    this.#inProgress.add(javaName);
    let body: string;
    if (model.kind === "enum") {
      body = `java.enum(${JSON.stringify(javaName)}, [${model.constants.map((c) => JSON.stringify(c)).join(", ")}])`;
    } else {
      const fields = model.fields.map(
        (f) => `  ${f.name}: ${javaTypeExpression(f.type, this.scope(f.bounds))},\n`,
      );
      body = `java.Class(${JSON.stringify(javaName)}, {\n${fields.join("")}})`;
    }
    this.#inProgress.delete(javaName);
    const name = this.constName(javaName);
    this.#declared.set(javaName, name);
    this.#declarations.push(
      `/** Java ${model.kind === "enum" ? "enum" : "class"} ${javaName} */\nexport const ${name} = ${body};\nexport type ${name} = JavaValue<typeof ${name}>;\n`,
    );
    return name;
  }
}

/** The keys of a service's entries: a method's name, or for all but one overload, name plus parameter types. */
function methodKeys(methods: readonly MethodModel[]): string[] {
  const byName = new Map<string, MethodModel[]>();
  for (const m of methods) byName.set(m.javaName, [...(byName.get(m.javaName) ?? []), m]);
  const taken = new Set(byName.keys());
  return methods.map((m) => {
    const overloads = byName.get(m.javaName)!;
    const plain = overloads.reduce((a, b) => (b.parameters.length < a.parameters.length ? b : a));
    if (m === plain) return m.javaName;
    const base = `${m.javaName}${m.parameters.map((p) => typeWord(p.type)).join("") || "NoArgs"}`;
    let key = base;
    for (let i = 2; taken.has(key); i++) key = `${base}${i}`;
    taken.add(key);
    return key;
  });
}

/** `[java.String, java.int]`, or `(name = java.String, times = java.int) => [name, times]` when names are known. */
function argsExpression(method: MethodModel, scope: TypeScope): string {
  const types = method.parameters.map((p) => javaTypeExpression(p.type, scope));
  const names = method.parameters.map((p) => (p.name && RESERVED_IN_TS.has(p.name) ? `${p.name}_` : p.name));
  const named = names.length > 0 && names.every((n) => n) && new Set(names).size === names.length;
  if (!named) return `[${types.join(", ")}]`;
  return `(${names.map((n, i) => `${n} = ${types[i]}`).join(", ")}) => [${names.join(", ")}]`;
}

function serviceDeclaration(writer: ModuleWriter, pool: ClassPool, service: ClassFile, name: string): string {
  const model = serviceModel(pool, service);
  const keys = methodKeys(model.methods);
  const entries = model.methods.map((method, i) => {
    const scope = writer.scope(method.bounds);
    const key = keys[i]!;
    const javaName = key === method.javaName ? "" : `javaName: ${JSON.stringify(method.javaName)}, `;
    const returns = javaTypeExpression(unwrapAsync(method.returns), scope);
    const throws = method.throws.length === 0 ? "" : `  /** @throws ${method.throws.join(", ")} */\n`;
    return `${throws}  ${key}: { ${javaName}args: ${argsExpression(method, scope)}, returns: ${returns} },\n`;
  });
  return `/** Java interface ${service.name} */\nexport const ${name} = defineService(${JSON.stringify(service.name)}, {\n${entries.join("")}});\n`;
}

/**
 * The module for `services`, importing the project's API from `importFrom`; `header` is the
 * comment that says how it was made.
 */
export function writeContractModule(
  pool: ClassPool,
  services: readonly ClassFile[],
  header: string,
  importFrom = "dubbo-ts",
): ContractModule {
  const writer = new ModuleWriter(pool);
  // Services take their simple names first; a POJO of the same simple name gets its whole name.
  const names = services.map((s) => writer.constName(s.name));
  const declarations = services.map((s, i) => serviceDeclaration(writer, pool, s, names[i]!));
  const dataTypes = writer.dataTypes;
  const imports = [
    ...(services.length > 0 ? ["defineService"] : []),
    "java",
    ...(dataTypes.length > 0 ? ["type JavaValue"] : []),
  ];
  const text = [
    `// ${header}\n`,
    `import { ${imports.join(", ")} } from ${JSON.stringify(importFrom)};\n`,
    ...writer.declarations,
    ...declarations,
  ].join("\n");
  return { text, services: services.map((s) => s.name), dataTypes };
}
