import {
  DUBBO_PROTOCOL_VERSION,
  DUBBO_RELEASE,
  javaMethodNames,
  REGISTRY_SERVICE_INTERFACE,
  type ServiceDefinition,
  servicePath,
  Url,
} from "../core/index.js";
import { APPLICATION_FIELDS, type ResolvedApplicationConfig } from "./application-config.js";
import { givenToParams } from "./fields.js";
import { methodParams } from "./method-config.js";
import { PROTOCOL_FIELDS, type ResolvedProtocolConfig } from "./protocol-config.js";
import { REFERENCE_FIELDS, type ResolvedReferenceConfig } from "./reference-config.js";
import type { ResolvedRegistryConfig } from "./registry-config.js";
import { runtimeValues, type UrlRuntime } from "./runtime.js";
import { type ResolvedServiceConfig, SERVICE_FIELDS } from "./service-config.js";
import { protocolSslParams, referenceSslParams } from "./ssl-config.js";

const ANY_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/** The parameters every URL of the application carries. */
function applicationParams(application: ResolvedApplicationConfig): Record<string, string> {
  return givenToParams(APPLICATION_FIELDS, application.given, "", { ...application.parameters });
}

/**
 * What Java 3 adds for an IDL (protobuf stub) service or reference: `proxy=nativestub`
 * (`ServiceConfig` for a `ServerService`, `ReferenceConfig` for a `DubboStub` interface). No
 * `serialization` key: the messages are protobuf by the method's own codec.
 */
function idlParams(definition: ServiceDefinition | undefined): Record<string, string> {
  return definition?.idl === undefined ? {} : { proxy: "nativestub" };
}

/**
 * The provider URL of one service on one protocol, in the shape Java Dubbo 2.7 registers:
 * `dubbo://host:port/iface?anyhost=..&application=..&deprecated=..&dubbo=2.0.2&dynamic=..&generic=false
 * &interface=..&methods=a,b&pid=..&release=..&side=provider&timestamp=..` plus every setting given
 * explicitly on the application, protocol, provider, service and its methods (`sayHello.timeout`).
 * `version` and `group` appear only when set. With port 0 the app substitutes the bound port.
 * A protocol with `ssl` adds `ssl-enabled=true` and its file paths as hidden `.ssl.*` keys.
 * `registerHost`/`registerPort` replace the host/port, and the bound ones move to `bind.ip`/`bind.port`.
 */
export function toServiceUrl(
  service: ResolvedServiceConfig,
  protocol: ResolvedProtocolConfig,
  application: ResolvedApplicationConfig,
  runtime?: UrlRuntime,
): Url {
  const now = runtimeValues(runtime);
  const anyhost = protocol.host === undefined || ANY_HOSTS.has(protocol.host);
  const params = applicationParams(application);
  Object.assign(params, protocol.parameters);
  givenToParams(PROTOCOL_FIELDS, protocol.given, "", params);
  Object.assign(params, protocolSslParams(protocol.given.ssl));
  Object.assign(params, service.parameters);
  givenToParams(SERVICE_FIELDS, service.given, "", params);
  methodParams(service.methods, params);
  if (service.token === true) params.token = now.newToken();
  Object.assign(params, {
    anyhost: String(anyhost),
    application: application.name,
    deprecated: String(service.deprecated),
    dubbo: DUBBO_PROTOCOL_VERSION,
    dynamic: String(service.dynamic),
    generic: "false",
    interface: service.interface,
    methods: service.methodNames.length === 0 ? "*" : service.methodNames.join(","),
    ...idlParams(service.definition),
    pid: String(now.pid),
    release: DUBBO_RELEASE,
    side: "provider",
    timestamp: String(now.timestamp),
  });
  // Behind NAT or in a container the registered address differs from the bound one (Java's
  // DUBBO_IP_TO_REGISTRY / DUBBO_PORT_TO_REGISTRY): the URL names the registered one and `bind.*`
  // (never registered) tells the protocol where to listen.
  const bindHost = anyhost || protocol.host === undefined ? now.host : protocol.host;
  if (protocol.registerHost !== undefined) params["bind.ip"] = bindHost;
  if (protocol.registerPort !== undefined) params["bind.port"] = String(protocol.port);
  return new Url({
    protocol: protocol.name,
    host: protocol.registerHost ?? bindHost,
    port: protocol.registerPort ?? protocol.port,
    // An IDL service's path is its proto name even when it registers under a Java one (Java's
    // ServiceConfig sets a ServerService's path to its descriptor's name).
    path: servicePath(service.interface, service.definition),
    params,
  });
}

/**
 * The consumer URL of one reference, as Java builds it: `consumer://host/iface?application=..
 * &dubbo=2.0.2&interface=..&methods=..&pid=..&release=..&side=consumer&timestamp=..` plus every
 * setting given explicitly on the consumer, the reference and its methods (`sayHello.timeout`).
 * Settings left unset are left off, so a provider's registered values apply (Java's merge rule);
 * readers apply Dubbo's defaults from `core/defaults.ts`.
 */
export function toReferenceUrl(
  reference: ResolvedReferenceConfig,
  application: ResolvedApplicationConfig,
  runtime?: UrlRuntime,
): Url {
  const now = runtimeValues(runtime);
  const params = applicationParams(application);
  Object.assign(params, reference.parameters);
  givenToParams(REFERENCE_FIELDS, reference.given, "", params);
  Object.assign(params, referenceSslParams(reference.given.ssl));
  methodParams(reference.methods, params);
  const methodNames = reference.definition === undefined ? [] : javaMethodNames(reference.definition);
  Object.assign(params, {
    application: application.name,
    dubbo: DUBBO_PROTOCOL_VERSION,
    interface: reference.interface,
    methods: methodNames.length === 0 ? "*" : methodNames.join(","),
    ...idlParams(reference.definition),
    pid: String(now.pid),
    release: DUBBO_RELEASE,
    side: "consumer",
    timestamp: String(now.timestamp),
  });
  return new Url({ protocol: "consumer", host: now.host, port: 0, path: reference.interface, params });
}

/**
 * One URL per registry in the address, e.g. `zookeeper://127.0.0.1:2181/org.apache.dubbo.registry.RegistryService
 * ?application=..&backup=..&check=true&...&session=60000&timeout=5000`; empty for `N/A`.
 */
export function toRegistryUrls(
  registry: ResolvedRegistryConfig,
  application: ResolvedApplicationConfig,
  runtime?: UrlRuntime,
): Url[] {
  const now = runtimeValues(runtime);
  // As Java's `UrlUtils.parseURL`: what the address itself says (`?session=2000`) wins; the
  // configuration only fills what the address leaves out.
  return registry.endpoints.map((endpoint) =>
    endpoint.with({ path: REGISTRY_SERVICE_INTERFACE }).withDefaults({
      ...applicationParams(application),
      ...registry.parameters,
      ...(registry.registerMode === undefined ? {} : { "register-mode": registry.registerMode }),
      application: application.name,
      check: registry.check,
      dubbo: DUBBO_PROTOCOL_VERSION,
      "file.cache": registry.useFileCache,
      file: registry.file,
      group: registry.group,
      interface: REGISTRY_SERVICE_INTERFACE,
      pid: now.pid,
      register: registry.register,
      release: DUBBO_RELEASE,
      session: registry.sessionMs,
      subscribe: registry.subscribe,
      timeout: registry.timeoutMs,
      timestamp: now.timestamp,
    }),
  );
}
