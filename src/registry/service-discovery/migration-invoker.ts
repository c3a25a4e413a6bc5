import type { Invocation, Invoker, RpcResult, Url } from "../../core/index.js";
import type { DirectoryClusterInvoker } from "../protocol/reference-invokers.js";
import { preferApplicationLevel } from "./migration.js";

/**
 * One registry's invoker of a reference in `APPLICATION_FIRST` (Java's `MigrationInvoker`): the
 * interface-level and the application-level cluster side by side; each call goes to the
 * application-level one while its provider list is non-empty and large enough against the
 * interface-level list (the threshold), else to the interface-level one.
 */
export class MigrationInvoker implements Invoker {
  readonly #interfaceLevel: DirectoryClusterInvoker;
  readonly #applicationLevel: DirectoryClusterInvoker;
  readonly #threshold: number;

  constructor(
    interfaceLevel: DirectoryClusterInvoker,
    applicationLevel: DirectoryClusterInvoker,
    threshold: number,
  ) {
    this.#interfaceLevel = interfaceLevel;
    this.#applicationLevel = applicationLevel;
    this.#threshold = threshold;
  }

  /** The cluster calls go to now. */
  get current(): DirectoryClusterInvoker {
    const app = this.#applicationLevel.directory.all().length;
    const iface = this.#interfaceLevel.directory.all().length;
    return preferApplicationLevel(app, iface, this.#threshold)
      ? this.#applicationLevel
      : this.#interfaceLevel;
  }

  get url(): Url {
    return this.current.url;
  }

  get definition() {
    return this.current.definition;
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    return this.current.invoke(inv);
  }

  isAvailable(): boolean {
    return this.current.isAvailable();
  }

  async destroy(): Promise<void> {
    await Promise.all([this.#interfaceLevel.destroy(), this.#applicationLevel.destroy()]);
  }
}
