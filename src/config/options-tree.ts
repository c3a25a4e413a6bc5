import { DEFAULT_PROTOCOL_NAME, type ServiceDefinition } from "../core/index.js";
import { type ApplicationConfig, readApplication } from "./application-config.js";
import { type ConsumerConfig, readConsumer } from "./consumer-config.js";
import { assertSafeKey, invalidSetting, joinPath, readRecord, unknownSetting } from "./errors.js";
import type { Given } from "./fields.js";
import { type MethodSettings, readMethods } from "./method-config.js";
import { type ProtocolConfig, readProtocol } from "./protocol-config.js";
import { type ProviderConfig, readProvider } from "./provider-config.js";
import { type ReferenceSettings, readReference } from "./reference-config.js";
import { type RegistryConfig, readRegistry } from "./registry-config.js";
import { readService, type ServiceSettings } from "./service-config.js";
import { isServiceDefinition } from "./service-contract.js";

/** Methods after reading: settings keyed by method name. */
type MethodsGiven = Readonly<Record<string, Given<MethodSettings>>>;

type ServiceGiven = Given<ServiceSettings> & {
  definition?: ServiceDefinition;
  ref?: object;
  methods?: MethodsGiven;
};

type ReferenceGiven = Given<ReferenceSettings> & {
  definition?: ServiceDefinition;
  methods?: MethodsGiven;
};

/**
 * A configuration source after validation, with every name canonical (`timeout` read as
 * `timeoutMs`) and single `registry`/`protocol` sections folded into the id maps, so sources
 * (file, environment, code) merge setting by setting.
 */
export interface OptionsTree {
  application?: Given<ApplicationConfig>;
  registries: Record<string, Given<RegistryConfig>>;
  protocols: Record<string, Given<ProtocolConfig>>;
  provider?: Given<ProviderConfig>;
  consumer?: Given<ConsumerConfig>;
  services: Record<string, ServiceGiven>;
  references: Record<string, ReferenceGiven>;
}

const SECTIONS = [
  "application",
  "registry",
  "registries",
  "protocol",
  "protocols",
  "provider",
  "consumer",
  "services",
  "references",
] as const;

export function emptyTree(): OptionsTree {
  return { registries: {}, protocols: {}, services: {}, references: {} };
}

/** The single registry's id when given as `registry:`. */
export const SINGLE_REGISTRY_ID = "default";

const ID = /^[A-Za-z0-9_.-]+$/;

/** Validates a whole configuration (object literal or parsed YAML) into an {@link OptionsTree}. */
export function readOptionsTree(input: unknown, path: string, fromText = false): OptionsTree {
  const root = readRecord(input, path === "" ? "the configuration" : path);
  const tree = emptyTree();
  for (const [key, value] of Object.entries(root)) {
    assertSafeKey(key, path);
    const at = joinPath(path, key);
    if (value === undefined || value === null) continue;
    switch (key) {
      case "application":
        tree.application = readApplication(value, at, fromText);
        break;
      case "provider":
        tree.provider = readProvider(value, at, fromText);
        break;
      case "consumer":
        tree.consumer = readConsumer(value, at, fromText);
        break;
      case "registry":
        addOnce(tree.registries, SINGLE_REGISTRY_ID, readRegistry(value, at, fromText), at);
        break;
      case "registries":
        for (const [id, item] of readIds(value, at))
          addOnce(tree.registries, id, readRegistry(item, joinPath(at, id), fromText), at);
        break;
      case "protocol": {
        const protocol = readProtocol(value, at, fromText);
        addOnce(tree.protocols, protocol.name ?? DEFAULT_PROTOCOL_NAME, protocol, at);
        break;
      }
      case "protocols":
        for (const [id, item] of readIds(value, at))
          addOnce(tree.protocols, id, readProtocol(item, joinPath(at, id), fromText), at);
        break;
      case "services":
        for (const [id, item] of readIds(value, at))
          tree.services[id] = readServiceGiven(item, joinPath(at, id), fromText);
        break;
      case "references":
        for (const [id, item] of readIds(value, at))
          tree.references[id] = readReferenceGiven(item, joinPath(at, id), fromText);
        break;
      default:
        throw unknownSetting(at, key, SECTIONS);
    }
  }
  return tree;
}

function addOnce<T>(map: Record<string, T>, id: string, value: T, path: string): void {
  if (Object.hasOwn(map, id)) {
    throw invalidSetting(
      path,
      id,
      `ids used once across "registry"/"registries" (and "protocol"/"protocols")`,
    );
  }
  map[id] = value;
}

function readIds(value: unknown, path: string): Array<[string, unknown]> {
  return Object.entries(readRecord(value, path, "a mapping of ids to settings")).map(([id, item]) => {
    assertSafeKey(id, path);
    if (!ID.test(id)) throw invalidSetting(joinPath(path, id), id, "an id of letters, digits, '-', '_', '.'");
    return [id, item];
  });
}

function readServiceGiven(value: unknown, path: string, fromText: boolean): ServiceGiven {
  const record = readRecord(value, path);
  const given: ServiceGiven = readService(record, path, fromText);
  if (record.definition !== undefined) given.definition = readDefinition(record.definition, path);
  if (record.ref !== undefined) {
    if (typeof record.ref !== "object" || record.ref === null) {
      throw invalidSetting(joinPath(path, "ref"), record.ref, "an object implementing the service's methods");
    }
    given.ref = record.ref;
  }
  if (record.methods !== undefined && record.methods !== null)
    given.methods = readMethods(record.methods, joinPath(path, "methods"), fromText);
  return given;
}

function readReferenceGiven(value: unknown, path: string, fromText: boolean): ReferenceGiven {
  const record = readRecord(value, path);
  const given: ReferenceGiven = readReference(record, path, fromText);
  if (record.definition !== undefined) given.definition = readDefinition(record.definition, path);
  if (record.methods !== undefined && record.methods !== null)
    given.methods = readMethods(record.methods, joinPath(path, "methods"), fromText);
  return given;
}

function readDefinition(value: unknown, path: string): ServiceDefinition {
  if (!isServiceDefinition(value))
    throw invalidSetting(joinPath(path, "definition"), value, "a contract made by defineService(...)");
  return value;
}

/** `later` over `earlier`, setting by setting; `parameters` and `methods` merge key by key. */
export function mergeTrees(earlier: OptionsTree, later: OptionsTree): OptionsTree {
  const merged: OptionsTree = {
    registries: mergeMaps(earlier.registries, later.registries, mergeSettings),
    protocols: mergeMaps(earlier.protocols, later.protocols, mergeSettings),
    services: mergeMaps(earlier.services, later.services, mergeWithMethods),
    references: mergeMaps(earlier.references, later.references, mergeWithMethods),
  };
  const application = mergeOptional(earlier.application, later.application);
  if (application !== undefined) merged.application = application;
  const provider = mergeOptional(earlier.provider, later.provider);
  if (provider !== undefined) merged.provider = provider;
  const consumer = mergeOptional(earlier.consumer, later.consumer);
  if (consumer !== undefined) merged.consumer = consumer;
  return merged;
}

type WithParameters = { parameters?: Readonly<Record<string, string>> };

function mergeSettings<T extends WithParameters>(earlier: T, later: T): T {
  const merged = { ...earlier, ...later };
  if (earlier.parameters !== undefined && later.parameters !== undefined) {
    merged.parameters = { ...earlier.parameters, ...later.parameters };
  }
  return merged;
}

function mergeWithMethods<T extends WithParameters & { methods?: MethodsGiven }>(earlier: T, later: T): T {
  const merged = mergeSettings(earlier, later);
  if (earlier.methods !== undefined && later.methods !== undefined) {
    merged.methods = mergeMaps(earlier.methods, later.methods, mergeSettings);
  }
  return merged;
}

function mergeOptional<T extends WithParameters>(
  earlier: T | undefined,
  later: T | undefined,
): T | undefined {
  if (earlier === undefined) return later;
  if (later === undefined) return earlier;
  return mergeSettings(earlier, later);
}

function mergeMaps<T>(
  earlier: Readonly<Record<string, T>>,
  later: Readonly<Record<string, T>>,
  merge: (a: T, b: T) => T,
): Record<string, T> {
  const out: Record<string, T> = { ...earlier };
  for (const [id, value] of Object.entries(later)) {
    const before = Object.hasOwn(out, id) ? out[id] : undefined;
    out[id] = before === undefined ? value : merge(before, value);
  }
  return out;
}
