import {
  type ClusterContext,
  createBuiltinRouters,
  createClusterInvoker,
  createStaticDirectory,
} from "../cluster/index.js";
import type { ResolvedReferenceConfig } from "../config/index.js";
import { Code, type Invoker, RpcError, type Url } from "../core/index.js";
import { INJVM_PROTOCOL, injvmServiceKey } from "../protocol/injvm/index.js";
import { mergeProviderUrl } from "../registry/directory/index.js";
import type { ApplicationDiscovery, Registries } from "../registry/index.js";
import { referWithRegistry } from "../registry/protocol/index.js";
import type { AppLogger, Extensions } from "./extensions.js";
import type { ProtocolSet } from "./protocol-set.js";

/** What building a reference's invoker needs from its application. */
export interface ReferenceSite {
  readonly extensions: Extensions;
  readonly protocols: ProtocolSet;
  readonly registries: Registries;
  readonly discovery: ApplicationDiscovery;
  readonly clusterContext: ClusterContext;
  readonly logger: AppLogger;
  /** The registry URLs of these registry ids (all configured ones when undefined). */
  registryUrls(ids: readonly string[] | undefined): Url[];
}

/**
 * The invoker a reference calls, from the first source that applies: the in-process export (when
 * this application exports the service and no `url` is given), direct `url=` addresses (a static
 * directory with the mock and tag routers), or the registries.
 */
export async function referInvoker(
  site: ReferenceSite,
  reference: ResolvedReferenceConfig,
  consumerUrl: Url,
  context: ClusterContext = site.clusterContext,
): Promise<Invoker> {
  const setting = `references.${reference.id}`;
  const exportedHere = site.protocols.exportsInProcess(injvmServiceKey(consumerUrl));
  if (
    reference.scope === "local" ||
    (reference.scope === undefined && reference.urls.length === 0 && exportedHere)
  ) {
    return site.protocols.get(INJVM_PROTOCOL, setting).refer(consumerUrl.with({ protocol: INJVM_PROTOCOL }));
  }
  if (reference.urls.length > 0) {
    const providers = await Promise.all(
      reference.urls.map((address) => {
        const providerUrl = mergeConsumerSettings(address, consumerUrl);
        return site.protocols.get(providerUrl.protocol, `${setting}.url`).refer(providerUrl);
      }),
    );
    const routers = createBuiltinRouters(site.extensions.router, consumerUrl);
    const directory = createStaticDirectory(consumerUrl, providers, routers, site.logger);
    return createClusterInvoker(directory, context, site.extensions.cluster);
  }
  const registryUrls = site.registryUrls(reference.registries);
  if (registryUrls.length > 0) {
    return referThroughRegistries(site, reference, consumerUrl, registryUrls, context);
  }
  throw new RpcError(
    `reference ${consumerUrl.serviceKey} has no way to reach a provider: give it a url (e.g. dubbo://127.0.0.1:20880), export the service in this application, or configure a registry`,
    Code.FailedPrecondition,
  );
}

/**
 * Java's registry refer: register the consumer, subscribe providers, routers and configurators,
 * join the directories into one cluster invoker. With `check` (the default) a reference that
 * finds no provider within `addressWaitMs` fails here, naming the registries it asked.
 */
async function referThroughRegistries(
  site: ReferenceSite,
  reference: ResolvedReferenceConfig,
  consumerUrl: Url,
  registryUrls: readonly Url[],
  context: ClusterContext,
): Promise<Invoker> {
  const setting = `references.${reference.id}`;
  const invoker = await referWithRegistry(consumerUrl, {
    registryUrls,
    protocol: (name) => site.protocols.find(name, setting),
    registries: site.registries,
    discovery: site.discovery,
    cluster: (directory) => createClusterInvoker(directory, context, site.extensions.cluster),
    routerFactories: site.extensions.router,
    logger: site.logger,
  });
  if (reference.check && !(await invoker.waitForProviders(reference.addressWaitMs))) {
    await invoker.destroy();
    throw new RpcError(
      `no provider of ${consumerUrl.serviceKey} is registered in ${registryUrls.map((u) => u.address).join(", ")} ` +
        `(check the provider's interface, group and version, or set check: false to start without one)`,
      Code.Unavailable,
    );
  }
  return invoker;
}

/**
 * A direct provider address takes the consumer's settings (timeout, retries, …) as Java's
 * point-to-point reference does (`ClusterUtils.mergeUrl`): the address decides protocol, host,
 * port and path (the interface when it names none), and the consumer's own start time never
 * becomes the provider's warmup `timestamp`.
 */
function mergeConsumerSettings(address: Url, consumerUrl: Url): Url {
  const provider = address.path === "" ? address.with({ path: consumerUrl.path }) : address;
  return mergeProviderUrl(provider, consumerUrl);
}
