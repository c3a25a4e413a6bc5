import type { Invoker, Url } from "../../core/index.js";
import type { ProtocolSource } from "../directory/registry-directory.js";
import type { DirectoryClusterInvoker } from "../protocol/reference-invokers.js";
import type { Registry } from "../registry.js";
import type { ApplicationDiscovery } from "./application-discovery.js";
import { MigrationInvoker } from "./migration-invoker.js";

/**
 * A reference's invoker for one registry as Java 3's migration says: the interface-level cluster
 * (`FORCE_INTERFACE`, and every registry without application-level discovery), the
 * application-level one (`FORCE_APPLICATION`), or both behind a {@link MigrationInvoker}
 * (`APPLICATION_FIRST`, the default); each also carries the config center's override rules.
 * `subscribe` builds and subscribes one cluster.
 */
export async function referByMigration(
  registry: Registry,
  consumerUrl: Url,
  discovery: ApplicationDiscovery | undefined,
  protocol: ProtocolSource,
  subscribe: (registry: Registry) => Promise<DirectoryClusterInvoker>,
): Promise<Invoker> {
  const applicationLevel = await discovery?.subscriberOf(registry, protocol);
  if (discovery === undefined || applicationLevel === undefined) return subscribe(registry);
  const interfaceRules = discovery.withConfigCenterRules(registry, registry);
  const applicationRules = discovery.withConfigCenterRules(applicationLevel, registry);
  const migration = await discovery.migrationOf(registry, consumerUrl);
  if (migration.step === "FORCE_INTERFACE") return subscribe(interfaceRules);
  if (migration.step === "FORCE_APPLICATION") return subscribe(applicationRules);
  return new MigrationInvoker(
    await subscribe(interfaceRules),
    await subscribe(applicationRules),
    migration.threshold,
  );
}
