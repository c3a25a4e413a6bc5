import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";

/**
 * A decorator applied to every extension of a point (Dubbo's wrapper classes): the filter chain
 * around every protocol, the mock invoker around every cluster. It receives the extension and its name.
 */
export type ExtensionWrapper<T> = (extension: T, name: string) => T;

interface WrapperEntry<T> {
  readonly wrap: ExtensionWrapper<T>;
  readonly order: number;
}

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
  /** Sorted outermost first. */
  #wrappers: ReadonlyArray<WrapperEntry<T>> = [];
  /** Wrapped extensions, built once per name and dropped when the name or the wrappers change. */
  readonly #wrapped = new Map<string, T>();

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
    this.#wrapped.delete(name);
    return this;
  }

  unregister(name: string): boolean {
    this.#wrapped.delete(name);
    return this.#byName.delete(name);
  }

  /**
   * Decorates every extension of this point, present and future. Lower `order` wraps outermost
   * (default 0; among equal orders the earlier-added wrapper is outermost). `get` applies the
   * wrappers once per name and keeps the result.
   */
  addWrapper(wrap: ExtensionWrapper<T>, options: { order?: number } = {}): this {
    if (typeof wrap !== "function") {
      throw new RpcError(
        `a ${this.kind} wrapper must be a function (extension, name) => extension`,
        Code.InvalidArgument,
      );
    }
    const entry: WrapperEntry<T> = { wrap, order: options.order ?? 0 };
    // A stable sort keeps earlier-added wrappers first (outermost) among equal orders.
    this.#wrappers = [...this.#wrappers, entry].sort((a, b) => a.order - b.order);
    this.#wrapped.clear();
    return this;
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  names(): string[] {
    return [...this.#byName.keys()];
  }

  /**
   * The extension named `name` (the default when `name` is undefined or empty), with every wrapper
   * applied. Wrapping happens once per name.
   */
  get(name?: string): T {
    const wanted = name === undefined || name === "" ? this.defaultName : name;
    const raw = this.unwrapped(wanted);
    if (this.#wrappers.length === 0 || wanted === undefined) return raw;
    let wrapped = this.#wrapped.get(wanted);
    if (wrapped === undefined) {
      wrapped = raw;
      for (let i = this.#wrappers.length - 1; i >= 0; i--) wrapped = this.#wrappers[i]!.wrap(wrapped, wanted);
      this.#wrapped.set(wanted, wrapped);
    }
    return wrapped;
  }

  /** The extension as registered, without wrappers. */
  unwrapped(name?: string): T {
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

  /** The registered extensions, unwrapped, in registration order. */
  entries(): IterableIterator<[string, T]> {
    return this.#byName.entries();
  }

  /** A copy that can be changed without touching this one (tests, per-application overrides). */
  fork(): ExtensionPoint<T> {
    const copy = new ExtensionPoint(this.kind, this.defaultName, this.#byName);
    copy.#wrappers = this.#wrappers;
    return copy;
  }
}
