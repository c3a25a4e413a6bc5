import {
  Code,
  deriveInvocation,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
  type Url,
} from "../../core/index.js";
import type { InjvmRegistry } from "./injvm-registry.js";

/** The caller's address a provider sees for an in-process call (Java's InjvmInvoker uses the same). */
export const INJVM_REMOTE_ADDRESS = "127.0.0.1:0";

/**
 * A reference to a service exported in the same application. The exporter is looked up at each
 * call (one map lookup), so a reference made before the export, or across an unexport and a new
 * export, calls whatever is exported now; the exported invoker already carries its provider filters.
 */
export class InjvmInvoker implements Invoker {
  readonly url: Url;
  readonly #registry: InjvmRegistry;
  readonly #key: string;
  #destroyed = false;

  constructor(url: Url, key: string, registry: InjvmRegistry) {
    this.url = url;
    this.#key = key;
    this.#registry = registry;
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    if (this.#destroyed) {
      return Promise.reject(
        new RpcError(`${this.#key}.${inv.method}: this injvm reference was destroyed`, Code.Unavailable),
      );
    }
    const exporter = this.#registry.find(this.#key);
    if (exporter === undefined) return Promise.reject(this.#notExported(inv));
    return exporter.invoker.invoke(deriveInvocation(inv, { remoteAddress: INJVM_REMOTE_ADDRESS }));
  }

  isAvailable(): boolean {
    return !this.#destroyed && this.#registry.find(this.#key) !== undefined;
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
  }

  #notExported(inv: Invocation): RpcError {
    const exported = this.#registry.keys();
    return new RpcError(
      `no service "${this.#key}" is exported in-process (injvm) in this application, called ${inv.method}; ` +
        `exported: ${exported.length === 0 ? "none" : exported.join(", ")}. Export it with scope "local" ` +
        "(the default exports both local and remote), or check the reference's interface, group and version",
      Code.NotFound,
    );
  }
}
