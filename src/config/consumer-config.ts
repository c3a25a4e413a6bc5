import {
  DEFAULT_ADDRESS_WAIT_MS,
  DEFAULT_CHECK,
  DEFAULT_CLUSTER,
  DEFAULT_CONNECTIONS,
  DEFAULT_LAZY,
  DEFAULT_SHARE_CONNECTIONS,
} from "../core/index.js";
import { readRecord } from "./errors.js";
import type { ExtensionName, FilterListEntry } from "./extension-name-types.js";
import {
  booleanField,
  extensionField,
  type FieldTable,
  type Given,
  integerField,
  JAVA_INT_MAX,
  listField,
  readFields,
  textField,
} from "./fields.js";
import {
  type EffectiveMethodSettings,
  METHOD_SETTING_DEFAULTS,
  METHOD_SETTING_FIELDS,
  type MethodSettings,
} from "./method-config.js";
import { type ReferenceSslConfig, referenceSslField } from "./ssl-config.js";

const ID = /^[A-Za-z0-9_.-]+$/;

/**
 * Defaults shared by every reference (Java `ConsumerConfig`, `dubbo.consumer.*`). A reference's
 * own setting wins over these; these win over Dubbo's defaults.
 */
export interface ConsumerConfig extends MethodSettings {
  /** Fault tolerance: `failover`, `failfast`, `failsafe`, `failback`, `forking`, `broadcast`, ... Default "failover". URL key `cluster`. */
  cluster?: ExtensionName<"cluster">;
  /** Consumer filters to add (`-name` removes one, `-default` all defaults). URL key `reference.filter`. Java `filter`. */
  filters?: readonly FilterListEntry[];
  /** Fail at start when no provider is available. Default true. URL key `check`. */
  check?: boolean;
  /** Connect on the first call instead of at refer time. Default false. URL key `lazy`. */
  lazy?: boolean;
  /** Dedicated connections per provider; 0 = use the shared ones. Default 0. URL key `connections`. */
  connections?: number;
  /** Shared connections per provider address. Default 1. URL key `shareconnections`. */
  shareConnections?: number;
  /** Default service group. No default. URL key `group`. */
  group?: string;
  /** Default service version. No default. URL key `version`. */
  version?: string;
  /** Registry ids to use; default all configured registries. Java `registry`. */
  registries?: readonly string[];
  /**
   * Ms the first calls of a reference wait for the registry to deliver a provider (SOFARPC's
   * address wait); 0 fails at once, as Java does. Default 0. URL key `address.wait`.
   */
  addressWaitMs?: number;
  /**
   * TLS to providers: `{ caPath?, certPath?, keyPath?, serverName?, rejectUnauthorized? }` (PEM
   * files, read at refer), `true` (= `{}`: Node's bundled CAs), or `false`. A reference's own
   * `ssl` replaces the consumer's whole. Providers that registered `ssl-enabled=true` get TLS
   * either way. URL key `ssl-enabled=true` plus hidden `.ssl.*` keys (never registered).
   * Java 3.x `dubbo.ssl.client-*`.
   */
  ssl?: ReferenceSslConfig | boolean;
}

export interface EffectiveConsumerSettings extends EffectiveMethodSettings {
  readonly cluster: string;
  readonly filters: readonly string[];
  readonly check: boolean;
  readonly lazy: boolean;
  readonly connections: number;
  readonly shareConnections: number;
  readonly group?: string;
  readonly version?: string;
  readonly registries?: readonly string[];
  readonly addressWaitMs: number;
  readonly ssl?: ReferenceSslConfig | boolean;
  readonly parameters: Readonly<Record<string, string>>;
}

export interface ResolvedConsumerConfig extends EffectiveConsumerSettings {
  /** What was set explicitly; only these reach URLs, so a provider's registered values still apply. */
  readonly given: Given<ConsumerConfig>;
}

export const CONSUMER_FIELDS: FieldTable<ConsumerConfig> = {
  ...METHOD_SETTING_FIELDS,
  cluster: extensionField("cluster", { urlKey: "cluster" }),
  filters: listField<FilterListEntry>({
    aliases: ["filter"],
    urlKey: "reference.filter",
    extension: "filter",
  }),
  check: booleanField({ urlKey: "check" }),
  lazy: booleanField({ urlKey: "lazy" }),
  connections: integerField(0, JAVA_INT_MAX, "0 = shared connections", { urlKey: "connections" }),
  shareConnections: integerField(1, JAVA_INT_MAX, "connections", {
    aliases: ["shareconnections"],
    urlKey: "shareconnections",
  }),
  group: textField({ urlKey: "group" }),
  version: textField({ urlKey: "version", numbersAsText: true }),
  registries: listField({ aliases: ["registry"], itemPattern: ID }),
  addressWaitMs: integerField(0, JAVA_INT_MAX, "ms", { aliases: ["address.wait"], urlKey: "address.wait" }),
  ssl: referenceSslField,
};

export const CONSUMER_DEFAULTS = {
  ...METHOD_SETTING_DEFAULTS,
  cluster: DEFAULT_CLUSTER,
  filters: Object.freeze([]),
  check: DEFAULT_CHECK,
  lazy: DEFAULT_LAZY,
  connections: DEFAULT_CONNECTIONS,
  shareConnections: DEFAULT_SHARE_CONNECTIONS,
  addressWaitMs: DEFAULT_ADDRESS_WAIT_MS,
  parameters: Object.freeze({}),
} as const;

export function readConsumer(input: unknown, path: string, fromText = false): Given<ConsumerConfig> {
  return readFields(CONSUMER_FIELDS, readRecord(input, path), path, { fromText });
}

/**
 * Resolves consumer defaults: a new frozen object with every default filled in.
 * @throws RpcError (InvalidArgument) naming the bad key, its value and what is accepted.
 */
export function resolveConsumer(options: ConsumerConfig = {}, path = "consumer"): ResolvedConsumerConfig {
  const given = Object.freeze(readConsumer(options, path));
  return Object.freeze({ ...CONSUMER_DEFAULTS, ...given, given });
}
