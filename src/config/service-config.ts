import { javaMethodNames, type ServiceDefinition } from "../core/index.js";
import { invalidSetting, joinPath, readRecord } from "./errors.js";
import { choiceField, type FieldTable, type Given, readFields, textField } from "./fields.js";
import type { MethodsConfig, ResolvedMethodConfig } from "./method-config.js";
import {
  type EffectiveProviderSettings,
  PROVIDER_DEFAULTS,
  PROVIDER_FIELDS,
  type ProviderConfig,
  type ResolvedProviderConfig,
  resolveProvider,
} from "./provider-config.js";
import { isServiceDefinition, resolveInterface, resolveMethods } from "./service-contract.js";

/** `local`: injvm only; `remote`: over the network only; `none`: not exported. Unset: both. */
export type ServiceScope = "local" | "remote" | "none";

/** The table-driven settings of a service (everything but the contract, implementation and methods). */
export interface ServiceSettings extends ProviderConfig {
  /** Java interface name; implied by `definition`. URL key `interface` and the URL path. */
  interface?: string;
  /** Where to export. Default: both in-process (injvm) and remote. Java `scope`. */
  scope?: ServiceScope;
}

/** A service to export (Java `ServiceConfig`, `dubbo.services.<id>.*`). */
export interface ServiceConfig extends ServiceSettings {
  /** The typed contract from `defineService`; gives the interface name and method list. */
  definition?: ServiceDefinition;
  /** The implementation (Java `ref`): an object whose methods serve calls. The app may bind it by id instead. */
  ref?: object;
  /** Per-method overrides keyed by method name: URL keys `sayHello.timeout`, ... */
  methods?: MethodsConfig;
}

export interface ResolvedServiceConfig extends EffectiveProviderSettings {
  readonly id: string;
  readonly interface: string;
  readonly definition?: ServiceDefinition;
  readonly ref?: object;
  readonly scope?: ServiceScope;
  /** The URL's `methods`: the definition's, else the implementation's functions; empty when unknown. */
  readonly methodNames: readonly string[];
  readonly methods: Readonly<Record<string, ResolvedMethodConfig>>;
  /** What the service and the provider defaults set explicitly (service wins): only these are registered. */
  readonly given: Given<ServiceSettings>;
}

export const SERVICE_FIELDS: FieldTable<ServiceSettings> = {
  ...PROVIDER_FIELDS,
  interface: textField({ urlKey: "interface" }),
  scope: choiceField(["local", "remote", "none"]),
};

const STRUCTURAL = ["definition", "ref", "methods"] as const;

export interface ResolveServiceContext {
  /** The service's id (key under `services`); default its interface name. */
  readonly id?: string;
  /** Provider defaults to layer under the service. */
  readonly provider?: ResolvedProviderConfig;
  /** Where the service sits, for error messages; default `services.<id>`. */
  readonly path?: string;
}

export function readService(input: unknown, path: string, fromText = false): Given<ServiceSettings> {
  return readFields(SERVICE_FIELDS, readRecord(input, path), path, { fromText, structural: STRUCTURAL });
}

/**
 * Resolves a service over its provider defaults into a new frozen object: effective settings
 * (method > service > provider > Dubbo default), methods checked against the definition.
 * @throws RpcError (InvalidArgument) naming the bad key with its path, the value and what is accepted.
 */
export function resolveService(
  options: ServiceConfig,
  context: ResolveServiceContext = {},
): ResolvedServiceConfig {
  const record = readRecord(options, context.path ?? "services.<id>");
  const id = context.id ?? guessServiceId(record);
  const path = context.path ?? `services.${id}`;
  const own = readService(record, path);
  const contract = resolveInterface(own.interface, record.definition, path);
  const ref = record.ref;
  if (ref !== undefined && (typeof ref !== "object" || ref === null)) {
    throw invalidSetting(joinPath(path, "ref"), ref, "an object implementing the service's methods");
  }
  const provider = context.provider ?? resolveProvider();
  const given = mergeGiven(provider.given, own);
  const { interface: _iface, ...settings } = given;
  const effective = { ...PROVIDER_DEFAULTS, ...settings };
  return Object.freeze({
    ...effective,
    ...contract,
    ...(ref === undefined ? {} : { ref }),
    id,
    methodNames: Object.freeze(methodNamesOf(contract.definition, ref ?? undefined)),
    methods: resolveMethods(record.methods, path, effective, contract.definition),
    given: Object.freeze(given),
  });
}

function guessServiceId(record: Record<string, unknown>): string {
  if (typeof record.interface === "string") return record.interface;
  if (isServiceDefinition(record.definition)) return record.definition.interfaceName;
  return "<service>";
}

function mergeGiven(provider: Given<ProviderConfig>, own: Given<ServiceSettings>): Given<ServiceSettings> {
  const merged: Given<ServiceSettings> = { ...provider, ...own };
  if (provider.parameters !== undefined && own.parameters !== undefined) {
    merged.parameters = Object.freeze({ ...provider.parameters, ...own.parameters });
  }
  return merged;
}

/** Method names as Java lists them in `methods`: the contract's, else the implementation's functions. */
function methodNamesOf(definition: ServiceDefinition | undefined, ref: object | undefined): string[] {
  if (definition !== undefined) return javaMethodNames(definition);
  const names = new Set<string>();
  for (let proto = ref; proto !== undefined && proto !== null && proto !== Object.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (name !== "constructor" && typeof descriptor?.value === "function") names.add(name);
    }
    const next: unknown = Object.getPrototypeOf(proto);
    proto = typeof next === "object" && next !== null ? next : undefined;
  }
  return [...names].sort();
}
