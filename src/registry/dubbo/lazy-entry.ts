import type { EmbeddedRegistryOptions, EmbeddedRegistryServer } from "./embedded-registry-server.js";

// The public entry's `startEmbeddedRegistry`: the registry server, its store and its client load
// when a process starts one, not in every application that imports dubbo-ts.

/**
 * Starts the embedded registry in this process: the registry service exported over the dubbo
 * protocol (`dispatcher=direct`: long-polls wait on timers, not on pool slots). Clients use the
 * registry address `dubbo://host:port`.
 */
export async function startEmbeddedRegistry(
  options: EmbeddedRegistryOptions = {},
): Promise<EmbeddedRegistryServer> {
  return (await import("./embedded-registry-server.js")).startEmbeddedRegistry(options);
}
