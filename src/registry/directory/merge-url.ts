import { Url } from "../../core/index.js";

/**
 * Provider settings that describe the provider's own server (threads, transport); a consumer
 * never inherits them (Java's `DefaultProviderURLMergeProcessor` removes them, with their
 * `default.` forms).
 */
const PROVIDER_ONLY_KEYS = [
  "threadname",
  "threadpool",
  "corethreads",
  "threads",
  "queues",
  "alive",
  "transporter",
];
const PROVIDER_ONLY = new Set([...PROVIDER_ONLY_KEYS, ...PROVIDER_ONLY_KEYS.map((k) => `default.${k}`)]);

/** Consumer parameters that describe the consumer process, not settings for the call. */
const CONSUMER_DROPPED = new Set(["release", "dubbo", "methods", "timestamp", "tag"]);
/** Consumer parameters dropped when the provider has them (the provider's identity wins). */
const PROVIDER_IDENTITY = ["group", "version", "generic"];

export const REMOTE_APPLICATION_KEY = "remote.application";

/**
 * The URL a consumer calls one provider with (Java's `DefaultProviderURLMergeProcessor.mergeUrl`):
 * the provider's registered parameters are the defaults (minus its thread-pool and transport
 * settings), the consumer's parameters override them (except group, version and generic the
 * provider has, and the consumer's release/dubbo/methods/timestamp/tag), `remote.application`
 * names the provider's application, and `reference.filter`/`invoker.listener` lists of both sides
 * are joined. Protocol, host, port and path stay the provider's.
 */
export function mergeProviderUrl(provider: Url, consumer: Url): Url {
  const merged = new Map<string, string>();
  for (const [k, v] of provider.params) if (!PROVIDER_ONLY.has(k)) merged.set(k, v);
  const skip = new Set(CONSUMER_DROPPED);
  for (const key of PROVIDER_IDENTITY) if (provider.has(key)) skip.add(key);
  for (const [k, v] of consumer.params) if (!skip.has(k)) merged.set(k, v);
  const application = provider.get("application");
  if (application !== undefined) merged.set(REMOTE_APPLICATION_KEY, application);
  for (const key of ["reference.filter", "invoker.listener"]) {
    const remote = provider.get(key);
    const local = consumer.get(key);
    if (remote !== undefined && remote !== "" && local !== undefined && local !== "") {
      merged.set(key, `${remote},${local}`);
    }
  }
  return new Url({
    protocol: provider.protocol,
    username: provider.username,
    password: provider.password,
    host: provider.host,
    port: provider.port,
    path: provider.path,
    params: merged,
  });
}

/**
 * The reference's URL with the providers' settings it lacks (Java's `RegistryDirectory.mergeUrl`,
 * `addParametersIfAbsent` of each merged provider URL into the directory URL): the first provider
 * that has a key gives it, and the provider's `tag` never becomes the reference's own (Java issue
 * 9922), since the tag router reads it there.
 */
export function withProviderDefaults(referenceUrl: Url, mergedProviders: readonly Url[]): Url {
  const defaults = new Map<string, string>();
  for (const provider of mergedProviders) {
    for (const [key, value] of provider.params) {
      if (key !== "tag" && !defaults.has(key)) defaults.set(key, value);
    }
  }
  return referenceUrl.withDefaults(Object.fromEntries(defaults));
}
