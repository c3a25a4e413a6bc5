import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";

/**
 * One extension point (Dubbo's SPI for one interface): named extensions, a default name, and
 * selection by the name a URL carries at the moment of use. Each application owns its own points,
 * so two applications in one process never share extensions. Unknown names fail loudly, listing
 * what is registered.
 */
export class ExtensionPoint<T> {
  readonly kind: string;
  readonly defaultName: string | undefined;
  readonly #byName: Map<string, T>;

  constructor(kind: string, defaultName?: string, entries?: Iterable<readonly [string, T]>) {
    this.kind = kind;
    this.defaultName = defaultName;
    this.#byName = new Map(entries);
  }

  /** Registers an extension; a second registration of one name is an error unless `replace` is set. */
  register(name: string, extension: T, options: { replace?: boolean } = {}): this {
    if (typeof name !== "string" || name.trim() === "" || /[,\s]/.test(name) || name.startsWith("-")) {
      throw new RpcError(
        `${this.kind} extension name "${String(name)}" is invalid (use a non-empty name without spaces, commas or a leading "-")`,
        Code.InvalidArgument,
      );
    }
    if (this.#byName.has(name) && options.replace !== true) {
      throw new RpcError(
        `${this.kind} "${name}" is already registered (pass { replace: true } to override it)`,
        Code.AlreadyExists,
      );
    }
    this.#byName.set(name, extension);
    return this;
  }

  unregister(name: string): boolean {
    return this.#byName.delete(name);
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** The extension named `name`, or the default when `name` is undefined or empty. */
  get(name?: string): T {
    const wanted = name === undefined || name === "" ? this.defaultName : name;
    const found = wanted === undefined ? undefined : this.#byName.get(wanted);
    if (found === undefined) {
      const registered = this.names().join(", ") || "none";
      const what =
        wanted === undefined
          ? `no ${this.kind} name given and no default`
          : `no ${this.kind} named "${wanted}"`;
      throw new RpcError(`${what} (registered: ${registered})`, Code.FailedPrecondition);
    }
    return found;
  }

  /** Checks a name at configuration time, so a typo fails at start and not at the first call. */
  assertKnown(name: string, setting: string): void {
    if (!this.#byName.has(name)) {
      throw new RpcError(
        `${setting}="${name}" names no ${this.kind} (registered: ${this.names().join(", ") || "none"})`,
        Code.InvalidArgument,
      );
    }
  }

  entries(): IterableIterator<[string, T]> {
    return this.#byName.entries();
  }

  /** A copy that can be changed without touching this one (tests, per-application overrides). */
  fork(): ExtensionPoint<T> {
    return new ExtensionPoint(this.kind, this.defaultName, this.#byName);
  }
}
