import { defineService, java } from "../../core/index.js";

/**
 * The embedded registry's service, exported over the dubbo protocol. Java's `dubbo://` registry
 * pushes changes through provider→consumer callbacks; this one needs none: clients long-poll
 * `watch`, and renew a lease so that a killed process's registrations lapse.
 *
 * - `register(clientId, url, leaseMs)`: publish a URL owned by the client (kept until unregistered,
 *   or until the client's lease lapses when the URL is `dynamic`, the default).
 * - `unregister(clientId, url)`.
 * - `renew(clientId, leaseMs)`: extend the lease; false when the server did not know the client
 *   (it restarted, or the lease had lapsed) — the client then registers everything again.
 * - `lookup(subscriptionUrl)`: the URLs the subscription matches now.
 * - `watch(clientId, subscriptionUrl, knownVersion, waitMs)`: answers at once when the lists'
 *   version differs from `knownVersion`, else when they change or after `waitMs`.
 */
export const EMBEDDED_REGISTRY_SERVICE = "org.dubbots.registry.EmbeddedRegistryService";

const WatchResultType = java.Class("org.dubbots.registry.WatchResult", {
  version: java.long,
  urls: java.List(java.String),
});

export const RegistryServiceContract = defineService(EMBEDDED_REGISTRY_SERVICE, {
  register: { args: [java.String, java.String, java.int], returns: java.void },
  unregister: { args: [java.String, java.String], returns: java.void },
  renew: { args: [java.String, java.int], returns: java.boolean },
  lookup: { args: [java.String], returns: java.List(java.String) },
  watch: { args: [java.String, java.String, java.long, java.int], returns: WatchResultType },
});

/** What `watch` answers: the version of the lists and every URL the subscription matches. */
export interface WatchResult {
  readonly version: number;
  readonly urls: readonly string[];
}
