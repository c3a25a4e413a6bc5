import {
  buildServiceKey,
  Code,
  DEFAULT_SERVICE_VERSION,
  type Exporter,
  RpcError,
  type Url,
} from "../../core/index.js";

/**
 * The services one application exported in-process, by service key. Each application (and each
 * test) creates its own, so two applications in one process never see each other's services.
 */
export class InjvmRegistry {
  readonly #exporters = new Map<string, Exporter>();

  /** Adds an exporter; a second export of one service key is an error naming the key. */
  add(key: string, exporter: Exporter): void {
    if (this.#exporters.has(key)) {
      throw new RpcError(
        `service "${key}" is already exported in-process (injvm) by this application; unexport it first or give the second one another group or version`,
        Code.AlreadyExists,
      );
    }
    this.#exporters.set(key, exporter);
  }

  /** Removes the exporter of `key` if it is this one (a later export of the same key is kept). */
  remove(key: string, exporter: Exporter): boolean {
    if (this.#exporters.get(key) !== exporter) return false;
    return this.#exporters.delete(key);
  }

  find(key: string): Exporter | undefined {
    return this.#exporters.get(key);
  }

  keys(): string[] {
    return [...this.#exporters.keys()];
  }

  get size(): number {
    return this.#exporters.size;
  }
}

export function createInjvmRegistry(): InjvmRegistry {
  return new InjvmRegistry();
}

/**
 * `group/interface:version` of a provider or reference URL. Version "0.0.0" is what Java sends for
 * "no version", so both spellings name the same service.
 */
export function injvmServiceKey(url: Url): string {
  const version = url.get("version");
  return buildServiceKey(
    url.serviceInterface,
    url.get("group"),
    version === DEFAULT_SERVICE_VERSION ? undefined : version,
  );
}
