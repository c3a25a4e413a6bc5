import { setTimeout as sleep } from "node:timers/promises";
import { type DubboConfig, type ResolvedServiceConfig, toServiceUrl } from "../config/index.js";
import type { Exporter, MethodsDefinition, ServiceDefinition, ServiceImplementation } from "../core/index.js";
import { Code, RpcError, Url } from "../core/index.js";
import { INJVM_PROTOCOL } from "../protocol/injvm/index.js";
import { createProviderInvoker } from "../proxy/index.js";
import type { ApplicationDiscovery, Registries } from "../registry/index.js";
import { exportWithRegistry } from "../registry/protocol/index.js";
import type { AppLogger } from "./extensions.js";
import type { ProtocolSet } from "./protocol-set.js";

/** What exporting a service needs from its application. */
export interface ExportSite {
  readonly config: DubboConfig;
  readonly protocols: ProtocolSet;
  readonly registries: Registries;
  readonly discovery: ApplicationDiscovery;
  readonly logger: AppLogger;
  /** Stamped as the provider URL's `timestamp`: stable for the application's life (Java's warmup). */
  readonly startedAt: number;
  /** Aborted when the application stops: a delayed export still waiting gives up. */
  readonly stopSignal: AbortSignal;
  registryUrls(ids: readonly string[] | undefined): Url[];
}

export interface ServiceExports {
  readonly exporters: readonly Exporter[];
  /** The provider URL of each remote export, as served (bound port, token). */
  readonly urls: readonly Url[];
}

/**
 * Java's `delay` (ms, from the service or its provider defaults): a positive delay postpones the
 * whole export, serving and registering, as Java's `ServiceConfig.export` schedules `doExport`.
 * Rejects if the application stops first.
 */
async function waitExportDelay(site: ExportSite, service: ResolvedServiceConfig): Promise<void> {
  try {
    await sleep(service.delayMs, undefined, { signal: site.stopSignal });
  } catch {
    throw new RpcError(
      `services.${service.id} (${service.interface}) was not exported: the application stopped during its ${service.delayMs} ms export delay (delayMs)`,
      Code.FailedPrecondition,
    );
  }
}

/**
 * Exports a service as its `scope` says: in-process (`injvm`) unless `remote`, and on each of its
 * protocols unless `local`, registered in its registries when it has any; after `delayMs` when it
 * is positive (resolving once the delayed export is done). On a failure, what was already
 * exported is unexported again.
 */
export async function exportService(
  site: ExportSite,
  service: ResolvedServiceConfig,
  definition: ServiceDefinition,
  implementation: object,
): Promise<ServiceExports> {
  const exporters: Exporter[] = [];
  const urls: Url[] = [];
  if (service.scope === "none") return { exporters, urls };
  if (service.delayMs > 0) await waitExportDelay(site, service);
  const { protocols, application } = site.config;
  const remoteUrls = (service.protocols ?? Object.keys(protocols)).map((id) =>
    toServiceUrl(service, protocols[id]!, application, { timestamp: site.startedAt }),
  );
  const serve = (protocolName: string, url: Url, registryUrls: readonly Url[]): Promise<Exporter> => {
    const protocol = site.protocols.get(protocolName, `services.${service.id}`);
    const impl = implementation as ServiceImplementation<MethodsDefinition>;
    const invoker = createProviderInvoker(definition, impl, url);
    if (registryUrls.length === 0) return protocol.export(invoker);
    return exportWithRegistry(invoker, {
      registryUrls,
      protocol,
      registries: site.registries,
      discovery: site.discovery,
      logger: site.logger,
    });
  };
  try {
    if (service.scope !== "remote") {
      const local =
        remoteUrls[0]?.with({ protocol: INJVM_PROTOCOL, host: "127.0.0.1", port: 0 }) ??
        new Url({ protocol: INJVM_PROTOCOL, host: "127.0.0.1", port: 0, path: service.interface });
      exporters.push(await serve(INJVM_PROTOCOL, local, []));
    }
    if (service.scope !== "local") {
      const registryUrls = site.registryUrls(service.registries);
      for (const url of remoteUrls) {
        const exporter = await serve(url.protocol, url, registryUrls);
        exporters.push(exporter);
        urls.push(exporter.url ?? exporter.invoker.url);
      }
    }
  } catch (error) {
    await Promise.allSettled(exporters.map((e) => e.unexport()));
    throw error;
  }
  return { exporters, urls };
}
