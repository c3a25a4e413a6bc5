import type { Invoker, Url } from "../../core/index.js";
import type { ProtocolSource } from "../directory/registry-directory.js";
import type { DirectoryClusterInvoker } from "../protocol/reference-invokers.js";
import type { Registry } from "../registry.js";
import type { ApplicationDiscovery } from "./application-discovery.js";
import { MigrationInvoker } from "./migration-invoker.js";

/** How the reference builds (subscribes) one cluster over a registry face, and lets one go. */
export interface ReferenceClusters {
  subscribe(registry: Registry): Promise<DirectoryClusterInvoker>;
  release(cluster: DirectoryClusterInvoker): Promise<void>;
  /** Aborts when the reference is destroyed: the migration rule is no longer followed. */
  readonly closed: AbortSignal;
}

/**
 * A reference's invoker for one registry as Java 3's migration says: the interface-level cluster
 * only for registries without application-level discovery; otherwise a {@link MigrationInvoker}
 * at the step the migration rule (or the consumer URL) gives, moved to another step whenever the
 * rule node changes. Each level also carries the config center's override rules.
 */
export async function referByMigration(
  registry: Registry,
  consumerUrl: Url,
  discovery: ApplicationDiscovery | undefined,
  protocol: ProtocolSource,
  clusters: ReferenceClusters,
): Promise<Invoker> {
  const applicationLevel = await discovery?.subscriberOf(registry, protocol);
  if (discovery === undefined || applicationLevel === undefined) return clusters.subscribe(registry);
  const faces = {
    interface: discovery.withConfigCenterRules(registry, registry),
    application: discovery.withConfigCenterRules(applicationLevel, registry),
  };
  const invoker = await MigrationInvoker.start(
    { subscribe: (level) => clusters.subscribe(faces[level]), release: (c) => clusters.release(c) },
    await discovery.migrationOf(registry, consumerUrl),
  );
  discovery.followMigration(registry, consumerUrl, clusters.closed, (next) => invoker.migrate(next));
  return invoker;
}
