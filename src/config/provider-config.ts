import {
  DEFAULT_CLUSTER,
  DEFAULT_DELAY_MS,
  DEFAULT_DEPRECATED,
  DEFAULT_DYNAMIC,
  DEFAULT_REGISTER,
  DEFAULT_WARMUP_MS,
  DEFAULT_WEIGHT,
} from "../core/index.js";
import { invalidSetting, readRecord } from "./errors.js";
import type { ExtensionName, FilterListEntry } from "./extension-name-types.js";
import {
  booleanField,
  extensionField,
  type FieldSpec,
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

const ID = /^[A-Za-z0-9_.-]+$/;

/**
 * Defaults shared by every exported service (Java `ProviderConfig`, `dubbo.provider.*`). Values set
 * here are registered with the provider URL and so become defaults for Java consumers too.
 */
export interface ProviderConfig extends MethodSettings {
  /** Suggested fault tolerance for consumers. Default "failover". URL key `cluster`. */
  cluster?: ExtensionName<"cluster">;
  /** Provider filters to add (`-name` removes one). URL key `service.filter`. Java `filter`. */
  filters?: readonly FilterListEntry[];
  /** Relative weight for consumers' load balancing. Default 100. URL key `weight`. */
  weight?: number;
  /** Ms over which a new provider's weight ramps up on consumers. Default 600000. URL key `warmup`. */
  warmupMs?: number;
  /**
   * Token consumers must present: a fixed string, or `true` for a random one per export.
   * No default. URL key `token`. Java `token`.
   */
  token?: string | boolean;
  /** Ms to wait before exporting. Default 0. Java `delay`. */
  delayMs?: number;
  /** Consumers warn when calling a deprecated service. Default false. URL key `deprecated`. */
  deprecated?: boolean;
  /** The registration disappears with the registry session (ephemeral). Default true. URL key `dynamic`. */
  dynamic?: boolean;
  /** Register with the registries at all. Default true. URL key `register`. */
  register?: boolean;
  /** Access log: `true` (to the logger) or a file path. No default. URL key `accesslog`. */
  accesslog?: string | boolean;
  /** Serialization for this service's responses (default: the protocol's). URL key `serialization`. */
  serialization?: ExtensionName<"serialization">;
  /** Default service group. No default. URL key `group`. */
  group?: string;
  /** Default service version. No default. URL key `version`. */
  version?: string;
  /** Protocol ids to export on; default all configured protocols. Java `protocol`. */
  protocols?: readonly string[];
  /** Registry ids to register with; default all configured registries. Java `registry`. */
  registries?: readonly string[];
}

export interface EffectiveProviderSettings extends EffectiveMethodSettings {
  readonly cluster: string;
  readonly filters: readonly string[];
  readonly weight: number;
  readonly warmupMs: number;
  readonly token?: string | boolean;
  readonly delayMs: number;
  readonly deprecated: boolean;
  readonly dynamic: boolean;
  readonly register: boolean;
  readonly accesslog?: string | boolean;
  readonly serialization?: string;
  readonly group?: string;
  readonly version?: string;
  readonly protocols?: readonly string[];
  readonly registries?: readonly string[];
  readonly parameters: Readonly<Record<string, string>>;
}

export interface ResolvedProviderConfig extends EffectiveProviderSettings {
  /** What was set explicitly; only these are registered on provider URLs. */
  readonly given: Given<ProviderConfig>;
}

/** `true`/`false` or a string; "true"/"false" text from YAML or the environment becomes a boolean. */
function stringOrBoolean(
  urlKey: string,
  trueWords: readonly string[],
  expected: string,
): FieldSpec<string | boolean> {
  return {
    urlKey,
    urlValue: (value) => (typeof value === "string" ? value : undefined),
    read(value, path) {
      if (typeof value === "boolean") return value;
      if (typeof value !== "string" || value.trim() === "") throw invalidSetting(path, value, expected);
      const text = value.trim();
      if (trueWords.includes(text)) return true;
      return text === "false" ? false : text;
    },
  };
}

export const PROVIDER_FIELDS: FieldTable<ProviderConfig> = {
  ...METHOD_SETTING_FIELDS,
  cluster: extensionField("cluster", { urlKey: "cluster" }),
  filters: listField<FilterListEntry>({ aliases: ["filter"], urlKey: "service.filter", extension: "filter" }),
  weight: integerField(0, JAVA_INT_MAX, "", { urlKey: "weight" }),
  warmupMs: integerField(0, JAVA_INT_MAX, "ms", { aliases: ["warmup"], urlKey: "warmup" }),
  // Java's "default" means a random token too.
  token: stringOrBoolean("token", ["true", "default"], "true, false or a token string"),
  delayMs: integerField(0, JAVA_INT_MAX, "ms", { aliases: ["delay"] }),
  deprecated: booleanField({ urlKey: "deprecated" }),
  dynamic: booleanField({ urlKey: "dynamic" }),
  register: booleanField({ urlKey: "register" }),
  accesslog: {
    ...stringOrBoolean("accesslog", ["true", "default"], "true, false or a log file path"),
    urlValue: (value) => (value === false ? undefined : String(value)),
  },
  serialization: extensionField("serialization", { urlKey: "serialization" }),
  group: textField({ urlKey: "group" }),
  version: textField({ urlKey: "version", numbersAsText: true }),
  protocols: listField({ aliases: ["protocol"], itemPattern: ID }),
  registries: listField({ aliases: ["registry"], itemPattern: ID }),
};

export const PROVIDER_DEFAULTS = {
  ...METHOD_SETTING_DEFAULTS,
  cluster: DEFAULT_CLUSTER,
  filters: Object.freeze([]),
  weight: DEFAULT_WEIGHT,
  warmupMs: DEFAULT_WARMUP_MS,
  delayMs: DEFAULT_DELAY_MS,
  deprecated: DEFAULT_DEPRECATED,
  dynamic: DEFAULT_DYNAMIC,
  register: DEFAULT_REGISTER,
  parameters: Object.freeze({}),
} as const;

export function readProvider(input: unknown, path: string, fromText = false): Given<ProviderConfig> {
  return readFields(PROVIDER_FIELDS, readRecord(input, path), path, { fromText });
}

/**
 * Resolves provider defaults: a new frozen object with every default filled in.
 * @throws RpcError (InvalidArgument) naming the bad key, its value and what is accepted.
 */
export function resolveProvider(options: ProviderConfig = {}, path = "provider"): ResolvedProviderConfig {
  const given = Object.freeze(readProvider(options, path));
  return Object.freeze({ ...PROVIDER_DEFAULTS, ...given, given });
}
