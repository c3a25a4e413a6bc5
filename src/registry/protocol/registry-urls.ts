import { Code, RpcError, type Url } from "../../core/index.js";
import { CATEGORY_KEY, CONFIGURATORS_CATEGORY, CONSUMER_PROTOCOL, CONSUMERS_CATEGORY } from "../registry.js";

/** The protocol of a provider's subscription to its own override rules (Java's `provider://`). */
export const PROVIDER_PROTOCOL = "provider";

/**
 * Export settings that describe this process only and never go to the registry (Java's
 * `RegistryProtocol.getUrlToRegistry`): where to bind, monitoring, qos, validation.
 */
export const LOCAL_ONLY_KEYS: readonly string[] = [
  "monitor",
  "bind.ip",
  "bind.port",
  "qos.enable",
  "qos.host",
  "qos.port",
  "qos.accept.foreign.ip",
  "accept.foreign.ip",
  "validation",
  "interfaces",
];

/**
 * The serialization a provider asks consumers to use (Java 3's `prefer.serialization`; a Java 3.2
 * consumer would otherwise pick fastjson2): its own `serialization`, Hessian 2 by default.
 */
const PREFER_SERIALIZATION_KEY = "prefer.serialization";
const DEFAULT_PREFERRED_SERIALIZATION = "hessian2";

const UNROUTABLE_HOSTS = new Set(["", "0.0.0.0", "::", "[::]"]);

/**
 * The provider URL a registry publishes: the served URL (bound port, generated token) without
 * local-only settings and hidden (`.`-prefixed) keys. Everything else Java consumers read —
 * `anyhost, application, deprecated, dubbo, dynamic, generic, interface, methods, pid, release,
 * side, timestamp`, plus group/version and the settings the service set — stays as the config
 * layer's `toServiceUrl` built it, with `prefer.serialization` added. A provider must advertise a host consumers can reach.
 */
export function urlToRegistry(served: Url): Url {
  if (UNROUTABLE_HOSTS.has(served.host)) {
    throw new RpcError(
      `cannot register ${served.serviceKey} at ${served.address}: consumers cannot connect to "${served.host}" (set the protocol's host to this machine's address; bind to every interface with bind.ip=0.0.0.0)`,
      Code.InvalidArgument,
    );
  }
  const hidden = [...served.params.keys()].filter((k) => k.startsWith("."));
  return served.withoutParams(...LOCAL_ONLY_KEYS, ...hidden).withDefaults({
    [PREFER_SERIALIZATION_KEY]: served.string("serialization", DEFAULT_PREFERRED_SERIALIZATION),
  });
}

/** What a provider subscribes to for its override rules (Java's `getSubscribedOverrideUrl`). */
export function overrideSubscribeUrl(registered: Url): Url {
  return registered
    .with({ protocol: PROVIDER_PROTOCOL })
    .withParams({ [CATEGORY_KEY]: CONFIGURATORS_CATEGORY, check: "false" });
}

/**
 * The consumer URL a reference registers under `/consumers` (what dubbo-admin lists), without its
 * hidden (`.`-prefixed) keys, which name local files such as TLS certificates.
 */
export function consumerRegistrationUrl(consumerUrl: Url): Url {
  const hidden = [...consumerUrl.params.keys()].filter((k) => k.startsWith("."));
  return consumerUrl
    .withoutParams(...hidden)
    .with({ protocol: CONSUMER_PROTOCOL, port: 0 })
    .withParams({ [CATEGORY_KEY]: CONSUMERS_CATEGORY, check: "false" });
}
