import {
  buildServiceKey,
  DEFAULT_SERVICE_VERSION,
  type Invoker,
  isFrameworkMethod,
  type JavaType,
  javaMethodName,
  parameterDescriptor,
  type Url,
} from "../../core/index.js";

/** One method (one overload) of an exported contract, with its descriptor computed once. */
export interface ExportedMethod {
  /** The contract entry that declares it (differs from the Java name for an overload). */
  readonly key: string;
  readonly parameterTypes: readonly JavaType[];
  readonly descriptor: string;
  readonly returnType: JavaType;
}

/** A service exported on a server: its invoker and what the request path needs, resolved at export. */
export interface ExportedService {
  /** `group/interface:version`, without a `0.0.0` version. */
  readonly key: string;
  readonly path: string;
  readonly url: Url;
  readonly invoker: Invoker;
  /** The contract's methods by Java name, each with its overloads; empty when the invoker carries no contract. */
  readonly methods: ReadonlyMap<string, readonly ExportedMethod[]>;
}

/** A call naming a method, or parameter types, that its path's contract does not declare. */
export class MissingOverload extends Error {
  constructor(
    readonly contract: ExportedService,
    readonly method: string,
  ) {
    const overloads = contract.methods.get(method);
    const has =
      overloads === undefined
        ? `it has no method "${method}" (methods: ${[...contract.methods.keys()].join(", ")})`
        : `its ${method} takes ${overloads.map((m) => `(${m.parameterTypes.map((t) => t.name).join(", ")})`).join(" or ")}`;
    super(`${has}. Check that the consumer's contract declares the provider's parameter types`);
  }
}

/**
 * The overload of `name` whose parameter descriptor is `descriptor` in these services (one
 * interface's exports), as Java's `ServiceDescriptor.getMethod(name, desc)`; undefined when the
 * types the request spells stand instead: no export of the path carries a contract, or the method
 * is a framework one (generic `$invoke`, `$echo`). Throws {@link MissingOverload} when a contract
 * lacks it.
 */
export function calledOverload(
  services: readonly ExportedService[],
  name: string,
  descriptor: string,
): ExportedMethod | undefined {
  for (const service of services) {
    const overloads = service.methods.get(name);
    if (overloads === undefined) continue;
    for (const method of overloads) if (method.descriptor === descriptor) return method;
  }
  if (isFrameworkMethod(name)) return undefined;
  const contract = services.find((s) => s.methods.size > 0);
  if (contract !== undefined) throw new MissingOverload(contract, name);
  return undefined;
}

/** Java's provider service key: version "0.0.0" (or none) means no version, as does an empty group. */
export function providerServiceKey(path: string, group: unknown, version: unknown): string {
  const v = typeof version === "string" && version !== DEFAULT_SERVICE_VERSION ? version : undefined;
  const g = typeof group === "string" ? group : undefined;
  return buildServiceKey(path, g, v);
}

export function exportedMethodsOf(invoker: Invoker): Map<string, ExportedMethod[]> {
  const methods = new Map<string, ExportedMethod[]>();
  const definition = invoker.definition;
  if (definition === undefined) return methods;
  for (const [key, m] of Object.entries(definition.methods)) {
    const name = javaMethodName(key, m);
    const overloads = methods.get(name) ?? [];
    overloads.push({
      key,
      parameterTypes: m.args,
      descriptor: parameterDescriptor(m.args),
      returnType: m.returns,
    });
    methods.set(name, overloads);
  }
  return methods;
}

const NO_SERVICES: readonly ExportedService[] = Object.freeze([]);

/** The service key of `service` under its interface's name rather than its path. */
function interfaceKeyOf(service: ExportedService): string {
  const { url } = service;
  return providerServiceKey(url.serviceInterface, url.get("group"), url.get("version"));
}

/**
 * The services exported on one server, by service key, by the key under their interface name
 * (for a protocol that also answers that name, as Triple does), and by path (for argument types).
 */
export class ExporterTable {
  readonly #byKey = new Map<string, ExportedService>();
  readonly #byInterfaceKey = new ServiceLists();
  readonly #byPath = new ServiceLists();

  get size(): number {
    return this.#byKey.size;
  }

  get keys(): string[] {
    return [...this.#byKey.keys()];
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  add(service: ExportedService): void {
    this.#byKey.set(service.key, service);
    this.#byInterfaceKey.add(interfaceKeyOf(service), service);
    this.#byPath.add(service.path, service);
  }

  remove(service: ExportedService): void {
    if (this.#byKey.get(service.key) === service) this.#byKey.delete(service.key);
    this.#byInterfaceKey.remove(interfaceKeyOf(service), service);
    this.#byPath.remove(service.path, service);
  }

  find(key: string): ExportedService | undefined {
    return this.#byKey.get(key);
  }

  /**
   * The service whose key, spelled with its interface name in place of its path, is `key`: an IDL
   * service whose proto sets `java_package` has the path `package.Service` and the interface
   * `{java_package}.{Service}`.
   */
  findByInterface(key: string): ExportedService | undefined {
    // Services of one interface under different paths: the earliest still exported answers, as
    // Java's TriplePathResolver keeps the first invoker registered under a fallback name.
    return this.#byInterfaceKey.of(key)[0];
  }

  /** The services exported under `path` (every group and version): their contracts type the arguments. */
  forPath(path: string): readonly ExportedService[] {
    return this.#byPath.of(path);
  }
}

/** Services by a name several may share, in the order they were added. */
class ServiceLists {
  readonly #lists = new Map<string, readonly ExportedService[]>();

  of(name: string): readonly ExportedService[] {
    return this.#lists.get(name) ?? NO_SERVICES;
  }

  add(name: string, service: ExportedService): void {
    this.#lists.set(name, [...this.of(name), service]);
  }

  remove(name: string, service: ExportedService): void {
    const left = this.of(name).filter((s) => s !== service);
    if (left.length === 0) this.#lists.delete(name);
    else this.#lists.set(name, left);
  }
}
