import {
  Code,
  consoleLogger,
  DEFAULT_REGISTER,
  type Exporter,
  type Invoker,
  type Protocol,
  RpcError,
  type Url,
} from "../../core/index.js";
import type { RegistryLogger } from "../registry.js";
import type { Registries } from "../registry-factory.js";
import type { ApplicationDiscovery } from "../service-discovery/application-discovery.js";
import {
  registerModeOf,
  registersInstance,
  registersInterfaces,
} from "../service-discovery/register-mode.js";
import { ProviderRegistration } from "./provider-registration.js";
import { urlToRegistry } from "./registry-urls.js";

export interface RegistryExportOptions {
  /** One URL per registry (`zookeeper://…`, `dubbo://…`, or Java's `registry://…?registry=zookeeper`). */
  readonly registryUrls: readonly Url[];
  /** The protocol that serves the invoker (the dubbo protocol, with its filter chain). */
  readonly protocol: Protocol;
  /** The application's registries (one connection per registry address). */
  readonly registries: Registries;
  /**
   * The application's application-level discovery (Dubbo 3): with it, registries whose
   * `register-mode` is `all` (the default) or `instance` also get the service in the
   * application's instance. Without it, registration is per interface only.
   */
  readonly discovery?: ApplicationDiscovery;
  readonly logger?: RegistryLogger;
}

/** An export published in registries. `unexport` unregisters everywhere, then stops serving. */
export interface RegistryExporter extends Exporter {
  /** The URL served: the invoker's URL with the bound port and generated token. */
  readonly url: Url;
  /** The provider URL registered in each registry now (rules applied), one per registry that registers. */
  registeredUrls(): Url[];
  /** Unregisters everywhere but keeps serving (`false`), or registers again (`true`). */
  setOnline(online: boolean): Promise<void>;
}

/** The served URL: protocols that bind a port (dubbo) report it on their exporter. */
function servedUrl(exporter: Exporter, invoker: Invoker): Url {
  return exporter.url ?? invoker.url;
}

/**
 * Java's `RegistryProtocol.export`: serve `invoker` over `protocol`, then in each registry
 * subscribe the provider to its override rules (`provider://…?category=configurators&check=false`)
 * and register its URL (`urlToRegistry`, rules applied) unless the registry or the service says
 * `register=false`. A failure (a registry unreachable with `check=true`) undoes what was done and
 * rejects.
 */
export async function exportWithRegistry(
  invoker: Invoker,
  options: RegistryExportOptions,
): Promise<RegistryExporter> {
  if (options.registryUrls.length === 0) {
    throw new RpcError(
      `exportWithRegistry(${invoker.url.serviceKey}) needs at least one registry URL (or export with the protocol alone)`,
      Code.InvalidArgument,
    );
  }
  const logger = options.logger ?? consoleLogger;
  const exporter = await options.protocol.export(invoker);
  const served = servedUrl(exporter, invoker);
  const registrations: ProviderRegistration[] = [];
  const instanceRemovals: Array<() => Promise<void>> = [];
  const stop = async (): Promise<void> => {
    await Promise.all([
      stopAll(registrations, logger),
      ...instanceRemovals.map((remove) =>
        remove().catch((error: unknown) => {
          logger.warn(`could not remove ${served.serviceKey} from its application instance`, error);
        }),
      ),
    ]);
  };
  try {
    for (const registryUrl of options.registryUrls) {
      const registry = await options.registries.get(registryUrl);
      const mode = options.discovery === undefined ? "interface" : registerModeOf(registryUrl);
      if (registersInterfaces(mode)) {
        // Java's provider also follows the config center's `{application}.configurators` and
        // `{interface:version:group}.configurators`.
        const rules = options.discovery?.withConfigCenterRules(registry, registry) ?? registry;
        const registration = new ProviderRegistration(rules, served, logger);
        registrations.push(registration);
        await registration.start();
      }
      const register =
        registryUrl.boolean("register", DEFAULT_REGISTER) && served.boolean("register", DEFAULT_REGISTER);
      if (registersInstance(mode) && register && options.discovery !== undefined) {
        const remove = await options.discovery.registerService(
          registry,
          urlToRegistry(served),
          options.protocol,
          served,
        );
        if (remove !== undefined) instanceRemovals.push(remove);
      }
    }
  } catch (error) {
    await stop();
    await exporter.unexport();
    throw error;
  }

  let unexported: Promise<void> | undefined;
  return {
    invoker: exporter.invoker,
    url: served,
    registeredUrls: () =>
      registrations.flatMap((r) => (r.registeredUrl === undefined ? [] : [r.registeredUrl])),
    setOnline: async (online) => {
      await Promise.all(registrations.map((r) => r.setOnline(online)));
    },
    unexport() {
      unexported ??= (async () => {
        // Unregister first, so consumers stop choosing this provider while it still answers.
        await stop();
        await exporter.unexport();
      })();
      return unexported;
    },
  };
}

async function stopAll(
  registrations: readonly ProviderRegistration[],
  logger: RegistryLogger,
): Promise<void> {
  await Promise.all(
    registrations.map((r) =>
      r.stop().catch((error: unknown) => {
        logger.warn(`could not unregister ${r.baseUrl.serviceKey} from ${r.registry.url.address}`, error);
      }),
    ),
  );
}
