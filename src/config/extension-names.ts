import type { ResolvedConsumerConfig } from "./consumer-config.js";
import type { DubboConfig } from "./dubbo-config.js";
import type { ExtensionPointName } from "./extension-name-types.js";
import type { ResolvedMethodConfig } from "./method-config.js";
import type { ResolvedProtocolConfig } from "./protocol-config.js";
import type { ResolvedProviderConfig } from "./provider-config.js";
import type { ResolvedReferenceConfig } from "./reference-config.js";
import type { ResolvedRegistryConfig } from "./registry-config.js";
import type { ResolvedServiceConfig } from "./service-config.js";

/** One extension name a configuration relies on, and the setting that names it. */
export interface ExtensionNameUse {
  readonly point: ExtensionPointName;
  readonly name: string;
  /** The setting's path, e.g. `references.demo.methods.sayHello.loadbalance`, for the error message. */
  readonly setting: string;
}

/**
 * Every extension name the configuration uses, defaults included, so the app can check each one
 * against its registered extensions at start (`point.assertKnown(name, setting)`) instead of at
 * the first call. Filter removals (`-name`) and the `default` keyword name no extension to check.
 */
export function collectExtensionNames(config: DubboConfig): ExtensionNameUse[] {
  const uses: ExtensionNameUse[] = [];
  for (const [id, registry] of Object.entries(config.registries))
    uses.push(...registryExtensionNames(registry, `registries.${id}`));
  for (const [id, protocol] of Object.entries(config.protocols))
    uses.push(...protocolExtensionNames(protocol, `protocols.${id}`));
  uses.push(
    ...callExtensionNames(config.provider, "provider"),
    ...callExtensionNames(config.consumer, "consumer"),
  );
  for (const [id, service] of Object.entries(config.services))
    uses.push(...serviceExtensionNames(service, `services.${id}`));
  for (const [id, reference] of Object.entries(config.references))
    uses.push(...referenceExtensionNames(reference, `references.${id}`));
  return uses;
}

export function registryExtensionNames(registry: ResolvedRegistryConfig, path: string): ExtensionNameUse[] {
  return registry.endpoints.map((url) => ({
    point: "registry",
    name: url.protocol,
    setting: `${path}.address`,
  }));
}

export function protocolExtensionNames(protocol: ResolvedProtocolConfig, path: string): ExtensionNameUse[] {
  return [
    { point: "protocol", name: protocol.name, setting: `${path}.name` },
    { point: "threadpool", name: protocol.threadpool, setting: `${path}.threadpool` },
    { point: "dispatcher", name: protocol.dispatcher, setting: `${path}.dispatcher` },
    { point: "serialization", name: protocol.serialization, setting: `${path}.serialization` },
  ];
}

export function serviceExtensionNames(service: ResolvedServiceConfig, path: string): ExtensionNameUse[] {
  const uses = callExtensionNames(service, path);
  if (service.serialization !== undefined) {
    uses.push({ point: "serialization", name: service.serialization, setting: `${path}.serialization` });
  }
  return uses.concat(methodExtensionNames(service.methods, path));
}

export function referenceExtensionNames(
  reference: ResolvedReferenceConfig,
  path: string,
): ExtensionNameUse[] {
  return callExtensionNames(reference, path).concat(methodExtensionNames(reference.methods, path));
}

type CallSettings = Pick<
  ResolvedConsumerConfig | ResolvedProviderConfig,
  "loadbalance" | "cluster" | "filters"
>;

function callExtensionNames(settings: CallSettings, path: string): ExtensionNameUse[] {
  const uses: ExtensionNameUse[] = [
    { point: "loadbalance", name: settings.loadbalance, setting: `${path}.loadbalance` },
    { point: "cluster", name: settings.cluster, setting: `${path}.cluster` },
  ];
  for (const filter of settings.filters) {
    const name = filter.startsWith("-") ? filter.slice(1) : filter;
    // `default` (all default filters) and removals name nothing that must exist.
    if (!filter.startsWith("-") && name !== "default")
      uses.push({ point: "filter", name, setting: `${path}.filters` });
  }
  return uses;
}

function methodExtensionNames(
  methods: Readonly<Record<string, ResolvedMethodConfig>>,
  path: string,
): ExtensionNameUse[] {
  return Object.values(methods)
    .filter((method) => method.given.loadbalance !== undefined)
    .map((method) => ({
      point: "loadbalance",
      name: method.loadbalance,
      setting: `${path}.methods.${method.name}.loadbalance`,
    }));
}
