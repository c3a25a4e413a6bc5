// In-process providers and consumers for the registry integration tests: each one its own
// registries and dubbo protocol (as separate applications would have), released through `cleanups`.

import type { Url } from "../../src/core/index.js";
import { silentLogger } from "../../src/core/index.js";
import { createFilterExtensionPoint, wrapProtocolWithFilters } from "../../src/filter/index.js";
import { createDubboProtocol } from "../../src/protocol/dubbo/index.js";
import { createProviderInvoker, createStub } from "../../src/proxy/index.js";
import { createRegistryFactories, Registries, type RegistryExtension } from "../../src/registry/index.js";
import {
  exportWithRegistry,
  type RegistryExporter,
  type RegistryReference,
  referWithRegistry,
} from "../../src/registry/protocol/index.js";
import { consumerExtensions, consumerUrl, DemoService, providerUrl, quietLogger } from "./kit.js";

/** How one in-process provider differs from the plain one. */
export interface ProviderOptions {
  /** Parameters its provider URL registers (`timeout`, `retries`, `weight`, …). */
  readonly params?: Record<string, string>;
  /** Its `whoAmI`; by default it answers `<name> answers <caller>` at once. */
  readonly whoAmI?: (caller: string) => string | Promise<string>;
}

export interface InProcessApps {
  /** A provider of DemoService, registered in `registry`. */
  provide(name: string, registry: Url, options?: ProviderOptions): Promise<RegistryExporter>;
  /** A consumer of DemoService discovering through `registry`; an `undefined` param is left off. */
  consume(
    registry: Url,
    params?: Record<string, string | undefined>,
  ): Promise<{
    reference: RegistryReference;
    stub: ReturnType<typeof createStub<typeof DemoService.methods>>;
  }>;
}

export function inProcessApps(
  factory: readonly [string, RegistryExtension],
  cleanups: Array<() => Promise<unknown>>,
): InProcessApps {
  function application() {
    const registries = new Registries({ factories: createRegistryFactories([factory]), logger: quietLogger });
    const dubbo = createDubboProtocol({ logger: silentLogger, shutdownWaitMs: 500 });
    cleanups.push(
      () => registries.destroyAll(),
      () => dubbo.destroy(),
    );
    return { registries, protocol: wrapProtocolWithFilters(dubbo, createFilterExtensionPoint()) };
  }

  return {
    async provide(name, registry, options = {}) {
      const { registries, protocol } = application();
      const invoker = createProviderInvoker(
        DemoService,
        { whoAmI: options.whoAmI ?? ((caller: string) => `${name} answers ${caller}`) },
        providerUrl(name, options.params),
      );
      const exporter = await exportWithRegistry(invoker, {
        registryUrls: [registry],
        protocol,
        registries,
        logger: quietLogger,
      });
      cleanups.push(() => exporter.unexport());
      return exporter;
    },
    async consume(registry, params = {}) {
      const { registries, protocol } = application();
      const reference = await referWithRegistry(consumerUrl().withParams(params), {
        registryUrls: [registry],
        protocol,
        registries,
        logger: quietLogger,
        ...consumerExtensions(),
      });
      cleanups.push(() => reference.destroy());
      return { reference, stub: createStub(DemoService, reference) };
    },
  };
}

/** The provider addresses a reference knows now, sorted. */
export const providersOf = (reference: RegistryReference) =>
  reference.directories.flatMap((d) => d.all().map((i) => i.url.address)).sort();
