import { Code, DEFAULT_GENERIC, RpcError, type ServiceDefinition, servicePath, Url } from "../core/index.js";
import {
  CONSUMER_DEFAULTS,
  CONSUMER_FIELDS,
  type ConsumerConfig,
  type EffectiveConsumerSettings,
  type ResolvedConsumerConfig,
  resolveConsumer,
} from "./consumer-config.js";
import { invalidSetting, joinPath, readRecord } from "./errors.js";
import {
  booleanField,
  choiceField,
  type FieldSpec,
  type FieldTable,
  type Given,
  readFields,
  textField,
} from "./fields.js";
import type { MethodsConfig, ResolvedMethodConfig } from "./method-config.js";
import { defaultPortOf } from "./protocol-config.js";
import { isServiceDefinition, resolveInterface, resolveMethods } from "./service-contract.js";

export type ReferenceScope = "local" | "remote";
export type GenericMode = boolean | "bean" | "nativejava";

/** The table-driven settings of a reference (everything but the contract and methods). */
export interface ReferenceSettings extends ConsumerConfig {
  /** Java interface name, e.g. "org.apache.dubbo.demo.DemoService"; implied by `definition`. URL key `interface`. */
  interface?: string;
  /**
   * Direct provider addresses, bypassing registries: `dubbo://10.0.0.5:20880` or `10.0.0.5:20880`,
   * several separated by `;` or `,`, or an array. Java `url`.
   */
  url?: string | readonly string[];
  /** `local`: call the in-process (injvm) export only; `remote`: never. Default: local when exported here. Java `scope`. */
  scope?: ReferenceScope;
  /** Deprecated Java spelling of `scope: "local"`. */
  injvm?: boolean;
  /** Generic calls through `$invoke` (`true`, `bean`, `nativejava`). Default false. URL key `generic`. */
  generic?: GenericMode;
  /** Only use providers of this protocol (e.g. "dubbo"). No default. URL key `protocol`. */
  protocol?: string;
}

/** A remote service to call (Java `ReferenceConfig`, `dubbo.references.<id>.*`). */
export interface ReferenceConfig extends ReferenceSettings {
  /** The typed contract from `defineService`; gives the interface name and method types. */
  definition?: ServiceDefinition;
  /** Per-method overrides keyed by method name: URL keys `sayHello.timeout`, ... */
  methods?: MethodsConfig;
}

export interface ResolvedReferenceConfig extends EffectiveConsumerSettings {
  readonly id: string;
  readonly interface: string;
  readonly definition?: ServiceDefinition;
  readonly scope?: ReferenceScope;
  readonly generic: GenericMode;
  readonly protocol?: string;
  /** Direct provider URLs from `url` (path = interface, port 20880 when left out); empty = use registries. */
  readonly urls: readonly Url[];
  readonly methods: Readonly<Record<string, ResolvedMethodConfig>>;
  /** What the reference and the consumer defaults set explicitly (reference wins): the URL carries only these. */
  readonly given: Given<ReferenceSettings>;
}

const genericField: FieldSpec<GenericMode> = {
  urlKey: "generic",
  read(value, path) {
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    if (value === "bean" || value === "nativejava") return value;
    throw invalidSetting(path, value, 'true, false, "bean" or "nativejava"');
  },
};

const urlListField: FieldSpec<string | readonly string[]> = {
  read(value, path) {
    const parts = typeof value === "string" ? [value] : value;
    const expected =
      "provider addresses like dubbo://127.0.0.1:20880 or 127.0.0.1:20880 (a string separated by ';' or ',', or an array)";
    if (!Array.isArray(parts) || !parts.every((p) => typeof p === "string"))
      throw invalidSetting(path, value, expected);
    const addresses = parts
      .flatMap((p) => p.split(";"))
      .flatMap(splitOnCommas)
      .map((p) => p.trim())
      .filter((p) => p !== "");
    if (addresses.length === 0) throw invalidSetting(path, value, expected);
    return Object.freeze(addresses);
  },
};

/** `,` separates addresses, except inside a query string (`?methods=a,b`) unless a new `scheme://` starts. */
function splitOnCommas(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(",")) {
    const last = out.length - 1;
    const current = out[last];
    if (current?.includes("?") && !piece.includes("://")) out[last] = `${current},${piece}`;
    else out.push(piece);
  }
  return out;
}

export const REFERENCE_FIELDS: FieldTable<ReferenceSettings> = {
  ...CONSUMER_FIELDS,
  interface: textField({ urlKey: "interface" }),
  url: urlListField,
  scope: choiceField(["local", "remote"]),
  injvm: booleanField(),
  generic: genericField,
  protocol: textField({ urlKey: "protocol" }),
};

const STRUCTURAL = ["definition", "methods"] as const;

export interface ResolveReferenceContext {
  /** The reference's id (key under `references`); default its interface name. */
  readonly id?: string;
  /** Consumer defaults to layer under the reference. */
  readonly consumer?: ResolvedConsumerConfig;
  /** Where the reference sits, for error messages; default `references.<id>`. */
  readonly path?: string;
}

export function readReference(input: unknown, path: string, fromText = false): Given<ReferenceSettings> {
  return readFields(REFERENCE_FIELDS, readRecord(input, path), path, { fromText, structural: STRUCTURAL });
}

/**
 * Resolves a reference over its consumer defaults into a new frozen object: effective settings
 * (method > reference > consumer > Dubbo default), direct URLs parsed, methods checked against the
 * definition.
 * @throws RpcError (InvalidArgument) naming the bad key with its path, the value and what is accepted.
 */
export function resolveReference(
  options: ReferenceConfig,
  context: ResolveReferenceContext = {},
): ResolvedReferenceConfig {
  const record = readRecord(options, context.path ?? "references.<id>");
  const id = context.id ?? guessId(record);
  const path = context.path ?? `references.${id}`;
  const own = readReference(record, path);
  const contract = resolveInterface(own.interface, record.definition, path);
  const consumer = context.consumer ?? resolveConsumer();
  const given = mergeGiven(consumer.given, own);
  if (own.injvm === true && own.scope === "remote") {
    throw new RpcError(
      `${path}: injvm=true and scope="remote" contradict each other; keep scope only`,
      Code.InvalidArgument,
    );
  }
  const { injvm: _injvm, url: _url, interface: _iface, ...settings } = given;
  const effective = { ...CONSUMER_DEFAULTS, generic: DEFAULT_GENERIC, ...settings };
  const scope = own.injvm === true ? "local" : own.scope;
  const addresses = own.url === undefined ? [] : typeof own.url === "string" ? [own.url] : own.url;
  return Object.freeze({
    ...effective,
    ...contract,
    ...(scope === undefined ? {} : { scope }),
    id,
    urls: Object.freeze(
      addresses.map((address) =>
        parseDirectUrl(address, servicePath(contract.interface, contract.definition), joinPath(path, "url")),
      ),
    ),
    methods: resolveMethods(record.methods, path, effective, contract.definition),
    given: Object.freeze(given),
  });
}

/** A programmatic reference without an id is known by its interface. */
function guessId(record: Record<string, unknown>): string {
  if (typeof record.interface === "string") return record.interface;
  if (isServiceDefinition(record.definition)) return record.definition.interfaceName;
  return "<reference>";
}

/** Consumer settings under the reference's; `parameters` merge key by key. */
function mergeGiven(
  consumer: Given<ConsumerConfig>,
  own: Given<ReferenceSettings>,
): Given<ReferenceSettings> {
  const merged: Given<ReferenceSettings> = { ...consumer, ...own };
  if (consumer.parameters !== undefined && own.parameters !== undefined) {
    merged.parameters = Object.freeze({ ...consumer.parameters, ...own.parameters });
  }
  return merged;
}

/** A `url=` address; one without a path calls `defaultPath` (an IDL service's `package.Service`). */
function parseDirectUrl(address: string, defaultPath: string, path: string): Url {
  let url: Url;
  try {
    url = Url.parse(address.includes("://") ? address : `dubbo://${address}`);
  } catch (cause) {
    throw new RpcError(
      `invalid setting ${path} = ${JSON.stringify(address)}: expected a provider address like dubbo://127.0.0.1:20880 (${cause instanceof Error ? cause.message : String(cause)})`,
      Code.InvalidArgument,
      { cause },
    );
  }
  if (url.host === "")
    throw invalidSetting(path, address, "an address with a host, like dubbo://127.0.0.1:20880");
  return url.with({
    path: url.path === "" ? defaultPath : url.path,
    port: url.port === 0 ? defaultPortOf(url.protocol) : url.port,
  });
}
