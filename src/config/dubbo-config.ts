import { Code, DEFAULT_PROTOCOL_NAME, RpcError } from "../core/index.js";
import {
  type ApplicationConfig,
  type ResolvedApplicationConfig,
  resolveApplication,
} from "./application-config.js";
import { type ConsumerConfig, type ResolvedConsumerConfig, resolveConsumer } from "./consumer-config.js";
import { type OptionsTree, readOptionsTree } from "./options-tree.js";
import { type ProtocolConfig, type ResolvedProtocolConfig, resolveProtocol } from "./protocol-config.js";
import { type ProviderConfig, type ResolvedProviderConfig, resolveProvider } from "./provider-config.js";
import { type ReferenceConfig, type ResolvedReferenceConfig, resolveReference } from "./reference-config.js";
import { type RegistryConfig, type ResolvedRegistryConfig, resolveRegistry } from "./registry-config.js";
import { type ResolvedServiceConfig, resolveService, type ServiceConfig } from "./service-config.js";
import { frozenRecord } from "./service-contract.js";
import { closestName } from "./suggest.js";

/**
 * Everything an application is configured with, as in Dubbo's `dubbo:` YAML tree. `registry` and
 * `protocol` are shorthands for one entry of `registries` (id "default") and `protocols` (id = name).
 */
export interface DubboConfigOptions {
  application?: ApplicationConfig;
  registry?: RegistryConfig;
  registries?: Readonly<Record<string, RegistryConfig>>;
  protocol?: ProtocolConfig;
  protocols?: Readonly<Record<string, ProtocolConfig>>;
  provider?: ProviderConfig;
  consumer?: ConsumerConfig;
  services?: Readonly<Record<string, ServiceConfig>>;
  references?: Readonly<Record<string, ReferenceConfig>>;
}

/** The resolved configuration: frozen, defaults applied, layers merged, cross-references checked. */
export interface DubboConfig {
  readonly application: ResolvedApplicationConfig;
  /** Registries by id; empty when none is configured (direct and in-process calls only). */
  readonly registries: Readonly<Record<string, ResolvedRegistryConfig>>;
  /** Protocols by id; `dubbo` on port 20880 when none is configured. */
  readonly protocols: Readonly<Record<string, ResolvedProtocolConfig>>;
  readonly provider: ResolvedProviderConfig;
  readonly consumer: ResolvedConsumerConfig;
  readonly services: Readonly<Record<string, ResolvedServiceConfig>>;
  readonly references: Readonly<Record<string, ResolvedReferenceConfig>>;
}

/**
 * Resolves a whole configuration given in code.
 * @throws RpcError (InvalidArgument) naming the bad key with its path, the value and what is accepted.
 */
export function resolveDubboConfig(options: DubboConfigOptions): DubboConfig {
  return resolveOptionsTree(readOptionsTree(options, ""));
}

/** Resolves a validated, merged tree (from code, a file and the environment). */
export function resolveOptionsTree(tree: OptionsTree): DubboConfig {
  const application = resolveApplication(tree.application ?? {}, "application");
  const registries = frozenRecord(
    Object.entries(tree.registries).map(
      ([id, given]) => [id, resolveRegistry(given, id, `registries.${id}`)] as const,
    ),
  );
  const protocolEntries = Object.entries(tree.protocols);
  const protocols = frozenRecord(
    protocolEntries.length === 0
      ? [[DEFAULT_PROTOCOL_NAME, resolveProtocol({}, DEFAULT_PROTOCOL_NAME)] as const]
      : protocolEntries.map(([id, given]) => [id, resolveProtocol(given, id, `protocols.${id}`)] as const),
  );
  const provider = resolveProvider(tree.provider ?? {}, "provider");
  const consumer = resolveConsumer(tree.consumer ?? {}, "consumer");
  checkIds(provider.protocols, protocols, "provider.protocols", "protocol");
  checkIds(provider.registries, registries, "provider.registries", "registry");
  checkIds(consumer.registries, registries, "consumer.registries", "registry");
  const services = frozenRecord(
    Object.entries(tree.services).map(([id, given]) => {
      const path = `services.${id}`;
      const service = resolveService(given, { id, provider, path });
      checkIds(service.protocols, protocols, `${path}.protocols`, "protocol");
      checkIds(service.registries, registries, `${path}.registries`, "registry");
      return [id, service] as const;
    }),
  );
  const references = frozenRecord(
    Object.entries(tree.references).map(([id, given]) => {
      const path = `references.${id}`;
      const reference = resolveReference(given, { id, consumer, path });
      checkIds(reference.registries, registries, `${path}.registries`, "registry");
      return [id, reference] as const;
    }),
  );
  return Object.freeze({ application, registries, protocols, provider, consumer, services, references });
}

/** Ids that name nothing configured fail here, listing what is. */
function checkIds(
  ids: readonly string[] | undefined,
  known: Readonly<Record<string, unknown>>,
  path: string,
  what: string,
): void {
  const names = Object.keys(known);
  for (const id of ids ?? []) {
    if (!Object.hasOwn(known, id)) {
      const guess = closestName(id, names);
      throw new RpcError(
        `${path} names ${what} "${id}", which is not configured${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; configured: ${names.join(", ") || "none"}`,
        Code.InvalidArgument,
      );
    }
  }
}
