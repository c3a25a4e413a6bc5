import {
  Code,
  consoleLogger,
  DEFAULT_REGISTRY_PROTOCOL,
  type ExtensionPlugin,
  ExtensionPoint,
  RpcError,
  type Url,
} from "../core/index.js";
import type { MonitorEvents } from "../monitor/index.js";
import type { Registry, RegistryLogger } from "./registry.js";

/** What a registry factory receives besides the registry URL. */
export interface RegistryContext {
  readonly logger: RegistryLogger;
  readonly monitor?: MonitorEvents;
}

/** Creates (and connects) a registry for one registry URL. Named by the URL protocol (`zookeeper`, `dubbo`). */
export type RegistryFactory = (url: Url, context: RegistryContext) => Promise<Registry>;

/**
 * A registry type, named by the address protocol it serves (`zookeeper`, `dubbo`). Its module
 * should stay light: `create` imports the implementation (and its npm client) on first use.
 */
export interface RegistryExtension {
  readonly create: RegistryFactory;
  /**
   * Checks the settings this registry type reads from its URL (address, `parameters`), when the
   * application loads its configuration; throws an `RpcError` naming `setting`, the key, the value
   * and what is accepted.
   */
  readonly validate?: (url: Url, setting: string) => void;
}

/** A plugin that registers one registry type under its address protocol. */
export function registryPlugin(
  protocol: string,
  type: RegistryExtension,
): ExtensionPlugin<{ readonly registry: ExtensionPoint<RegistryExtension> }> {
  return {
    name: `${protocol}-registry`,
    register: (points) => {
      points.registry.register(protocol, type);
    },
  };
}

/** The registry types by protocol; the default name is Java's `dubbo` (the embedded registry). */
export function createRegistryFactories(
  entries?: Iterable<readonly [string, RegistryExtension]>,
): ExtensionPoint<RegistryExtension> {
  return new ExtensionPoint<RegistryExtension>("registry", DEFAULT_REGISTRY_PROTOCOL, entries);
}

/** Parameters that describe what uses a registry, not the registry itself (Java drops them too). */
const NOT_PART_OF_IDENTITY = ["export", "refer", "registry", "timestamp", "pid"];

/**
 * The registry URL a `registry://…?registry=zookeeper` wrapper (Java's RegistryProtocol form)
 * stands for: `zookeeper://…`. Other URLs are returned unchanged.
 */
export function resolveRegistryUrl(url: Url): Url {
  if (url.protocol !== "registry") return url;
  return url.with({ protocol: url.string("registry", DEFAULT_REGISTRY_PROTOCOL) }).withoutParams("registry");
}

export interface RegistriesOptions {
  readonly factories: ExtensionPoint<RegistryExtension>;
  readonly logger?: RegistryLogger;
  /** The application's monitor stream, which its registries tell of their notifications. */
  readonly monitor?: MonitorEvents;
}

/**
 * One application's registries: the same address with the same parameters gives the same instance
 * (concurrent callers share one connection attempt), and `destroyAll` releases every one.
 */
export class Registries {
  readonly #factories: ExtensionPoint<RegistryExtension>;
  readonly #logger: RegistryLogger;
  readonly #context: RegistryContext;
  readonly #byKey = new Map<string, Promise<Registry>>();
  #destroyed = false;

  constructor(options: RegistriesOptions) {
    this.#factories = options.factories;
    this.#logger = options.logger ?? consoleLogger;
    this.#context = {
      logger: this.#logger,
      ...(options.monitor === undefined ? {} : { monitor: options.monitor }),
    };
  }

  /** The cache key of a registry URL: protocol, credentials, address, path and the remaining parameters. */
  static keyOf(url: Url): string {
    return resolveRegistryUrl(url)
      .withoutParams(...NOT_PART_OF_IDENTITY)
      .toFullString();
  }

  get(url: Url): Promise<Registry> {
    if (this.#destroyed) {
      return Promise.reject(
        new RpcError(
          `cannot open registry ${url.address}: the registries were destroyed`,
          Code.FailedPrecondition,
        ),
      );
    }
    const resolved = resolveRegistryUrl(url).withoutParams(...NOT_PART_OF_IDENTITY);
    const key = resolved.toFullString();
    const existing = this.#byKey.get(key);
    if (existing !== undefined) return existing;
    let type: RegistryExtension;
    try {
      type = this.#factories.get(resolved.protocol);
    } catch (error) {
      return Promise.reject(error);
    }
    const created = type.create(resolved, this.#context);
    this.#byKey.set(key, created);
    created.catch(() => {
      if (this.#byKey.get(key) === created) this.#byKey.delete(key);
    });
    return created;
  }

  /** The registries created so far (those whose creation succeeded). */
  async all(): Promise<Registry[]> {
    const settled = await Promise.allSettled(this.#byKey.values());
    return settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  }

  async destroyAll(): Promise<void> {
    this.#destroyed = true;
    const registries = await this.all();
    this.#byKey.clear();
    await Promise.all(
      registries.map((r) =>
        r
          .destroy()
          .catch((error: unknown) => this.#logger.warn(`could not destroy registry ${r.url.address}`, error)),
      ),
    );
  }
}
