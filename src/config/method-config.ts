import {
  DEFAULT_ACTIVES,
  DEFAULT_ASYNC,
  DEFAULT_EXECUTES,
  DEFAULT_FORKS,
  DEFAULT_LOADBALANCE,
  DEFAULT_ONEWAY,
  DEFAULT_RETRIES,
  DEFAULT_STICKY,
  DEFAULT_TIMEOUT_MS,
} from "../core/index.js";
import { assertSafeKey, invalidSetting, isRecord, joinPath, readRecord } from "./errors.js";
import type { ExtensionName } from "./extension-name-types.js";
import {
  booleanField,
  extensionField,
  type FieldSpec,
  type FieldTable,
  type Given,
  givenToParams,
  integerField,
  JAVA_INT_MAX,
  parametersField,
  readFields,
  textField,
} from "./fields.js";

/**
 * Settings a method can override and a service, reference, provider or consumer can default
 * (Java's `AbstractMethodConfig`). The nearest layer that sets one wins: method, then
 * service/reference, then provider/consumer, then Dubbo's default.
 */
export interface MethodSettings {
  /**
   * Per-attempt call timeout. Default 1000 ms. URL key `timeout` (method level `sayHello.timeout`).
   * Java `dubbo.consumer.timeout` / `<dubbo:method timeout>`. dubbo.yaml: `timeout`.
   */
  timeoutMs?: number;
  /** Extra attempts after the first under failover. Default 2. URL key `retries`. Java `retries`. */
  retries?: number;
  /** Load balancer name (`random`, `roundrobin`, `leastactive`, ...). Default "random". URL key `loadbalance`. */
  loadbalance?: ExtensionName<"loadbalance">;
  /** Consumer-side concurrent calls per method per provider; 0 = no limit. Default 0. URL key `actives`. */
  actives?: number;
  /** Provider-side concurrent executions per method; 0 = no limit. Default 0. URL key `executes`. */
  executes?: number;
  /** Fire the call and return at once; the result arrives later. Default false. URL key `async`. */
  async?: boolean;
  /** One-way call: no response is awaited. Default false. URL key `return` (`return=false`). Java `return`. */
  oneway?: boolean;
  /**
   * Mock on failure or by force: `true`, `return <value>`, `throw`, `force:return null`, `fail:...`.
   * No default. URL key `mock`. Java `mock`.
   */
  mock?: string;
  /** Result merger of the `mergeable` cluster (`true` or a merger name). URL key `merger`. */
  merger?: string;
  /** Stick to the provider that served the last call while it is available. Default false. URL key `sticky`. */
  sticky?: boolean;
  /** Parallel calls of the `forking` cluster. Default 2. URL key `forks`. */
  forks?: number;
  /** Extra URL parameters, Java's `parameters` (method level: `sayHello.key=value`). */
  parameters?: Readonly<Record<string, string>>;
}

/** One method's overrides (Java `MethodConfig`); the name is the key under `methods`. */
export interface MethodConfig extends MethodSettings {
  /** The method's name; optional when the method is keyed by name under `methods`. */
  name?: string;
}

/** Methods keyed by name, or Java's list form `[{ name: "sayHello", ... }]`. */
export type MethodsConfig = Readonly<Record<string, MethodSettings>> | readonly MethodConfig[];

/** The effective method-level settings after layering and defaults. */
export interface EffectiveMethodSettings {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly loadbalance: string;
  readonly actives: number;
  readonly executes: number;
  readonly async: boolean;
  readonly oneway: boolean;
  readonly mock?: string;
  readonly merger?: string;
  readonly sticky: boolean;
  readonly forks: number;
}

export interface ResolvedMethodConfig extends EffectiveMethodSettings {
  readonly name: string;
  /** What this method set itself; only these become `name.key` URL parameters. */
  readonly given: Given<MethodSettings>;
}

const mockField: FieldSpec<string> = {
  urlKey: "mock",
  read(value, path) {
    if (typeof value === "boolean") return String(value);
    return textField().read(value, path, false);
  },
};

export const METHOD_SETTING_FIELDS: FieldTable<MethodSettings> = {
  timeoutMs: integerField(1, JAVA_INT_MAX, "ms", { aliases: ["timeout"], urlKey: "timeout" }),
  retries: integerField(0, JAVA_INT_MAX, "extra attempts", { urlKey: "retries" }),
  loadbalance: extensionField("loadbalance", { urlKey: "loadbalance" }),
  actives: integerField(0, JAVA_INT_MAX, "0 = no limit", { urlKey: "actives" }),
  executes: integerField(0, JAVA_INT_MAX, "0 = no limit", { urlKey: "executes" }),
  async: booleanField({ urlKey: "async" }),
  oneway: { ...booleanField({ urlKey: "return" }), urlValue: (oneway) => String(!oneway) },
  mock: mockField,
  merger: textField({ urlKey: "merger" }),
  sticky: booleanField({ urlKey: "sticky" }),
  forks: integerField(1, JAVA_INT_MAX, "parallel calls", { urlKey: "forks" }),
  parameters: parametersField(),
};

export const METHOD_SETTING_DEFAULTS = {
  timeoutMs: DEFAULT_TIMEOUT_MS,
  retries: DEFAULT_RETRIES,
  loadbalance: DEFAULT_LOADBALANCE,
  actives: DEFAULT_ACTIVES,
  executes: DEFAULT_EXECUTES,
  async: DEFAULT_ASYNC,
  oneway: DEFAULT_ONEWAY,
  sticky: DEFAULT_STICKY,
  forks: DEFAULT_FORKS,
} as const;

const JAVA_METHOD_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Reads `methods` (map or list form) into validated settings keyed by method name. */
export function readMethods(
  value: unknown,
  path: string,
  fromText = false,
): Readonly<Record<string, Given<MethodSettings>>> {
  const out: Record<string, Given<MethodSettings>> = {};
  const add = (name: unknown, settings: unknown, at: string): void => {
    if (typeof name !== "string" || !JAVA_METHOD_NAME.test(name)) {
      throw invalidSetting(at, name, "a Java method name, e.g. sayHello");
    }
    assertSafeKey(name, path);
    if (Object.hasOwn(out, name)) throw invalidSetting(at, name, "each method configured once");
    const record = readRecord(settings, at, "a mapping of method settings");
    out[name] = readFields(METHOD_SETTING_FIELDS, record, at, { fromText, structural: ["name"] });
  };
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const at = `${path}[${i}]`;
      add(isRecord(item) ? item.name : undefined, item, joinPath(at, "name"));
    });
  } else {
    for (const [name, settings] of Object.entries(
      readRecord(value, path, "a mapping of method names to settings"),
    )) {
      assertSafeKey(name, path);
      if (isRecord(settings) && settings.name !== undefined && settings.name !== name) {
        throw invalidSetting(
          joinPath(joinPath(path, name), "name"),
          settings.name,
          `"${name}" (the key it is under)`,
        );
      }
      add(name, settings, joinPath(path, name));
    }
  }
  return out;
}

/** One method's effective settings over what its service or reference settled on. */
export function resolveMethod(
  name: string,
  given: Given<MethodSettings>,
  inherited: EffectiveMethodSettings,
): ResolvedMethodConfig {
  const { parameters: _parameters, ...settings } = given;
  return Object.freeze({
    ...pickMethodSettings(inherited),
    ...settings,
    name,
    given: Object.freeze({ ...given }),
  });
}

/** Only the method-level settings of a larger resolved object (a reference or service). */
function pickMethodSettings(from: EffectiveMethodSettings): EffectiveMethodSettings {
  const { timeoutMs, retries, loadbalance, actives, executes, async, oneway, mock, merger, sticky, forks } =
    from;
  return {
    timeoutMs,
    retries,
    loadbalance,
    actives,
    executes,
    async,
    oneway,
    sticky,
    forks,
    ...(mock === undefined ? {} : { mock }),
    ...(merger === undefined ? {} : { merger }),
  };
}

/** The `sayHello.timeout=...` parameters of every method that set something. */
export function methodParams(
  methods: Readonly<Record<string, ResolvedMethodConfig>>,
  out: Record<string, string>,
): Record<string, string> {
  for (const method of Object.values(methods)) {
    const prefix = `${method.name}.`;
    givenToParams(METHOD_SETTING_FIELDS, method.given, prefix, out);
    for (const [key, value] of Object.entries(method.given.parameters ?? {})) out[`${prefix}${key}`] = value;
  }
  return out;
}
