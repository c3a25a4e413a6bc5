import type { Url } from "../../core/index.js";
import type { RegistryLogger } from "../../registry/index.js";
import type { RegistryView } from "./registry-view.js";

/**
 * Opens the console's view of a ZooKeeper registry, loading the ZooKeeper client only now: an
 * application whose console page is never opened does not load it.
 */
export async function openRegistryView(registry: Url, logger: RegistryLogger): Promise<RegistryView> {
  const { RegistryView } = await import("./registry-view.js");
  return RegistryView.open(registry, logger);
}
