import { parse } from "yaml";
import { Code, RpcError, Url } from "../../core/index.js";
import { ANY_HOST, OVERRIDE_PROTOCOL } from "../directory/configurator.js";
import { CATEGORY_KEY, CONFIGURATORS_CATEGORY } from "../registry.js";

/** The config-center key suffix of override rules (Java's `CONFIGURATORS_SUFFIX`). */
export const CONFIGURATORS_SUFFIX = ".configurators";

interface ConfigItem {
  readonly type?: string;
  readonly enabled?: boolean;
  readonly addresses?: readonly string[];
  readonly providerAddresses?: readonly string[];
  readonly services?: readonly string[];
  readonly applications?: readonly string[];
  readonly side?: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly match?: unknown;
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** `group/interface:version` as override URL parts (Java's `ConfigParser.appendService`). */
function serviceParts(serviceKey: string): { path: string; params: Record<string, string> } {
  let name = serviceKey;
  const params: Record<string, string> = {};
  const slash = name.indexOf("/");
  if (slash > 0) {
    params.group = name.slice(0, slash);
    name = name.slice(slash + 1);
  }
  const colon = name.indexOf(":");
  if (colon > 0) {
    params.version = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  return { path: name, params };
}

/**
 * dubbo-admin's configurator rule (YAML, `configVersion: v2.7`, `scope: service|application`,
 * `key`, `enabled`, `configs[]`) as the `override://` URLs Java's `ConfigParser.parseConfigurators`
 * makes of it, with category `configurators` so the registry directory applies them like the
 * rules under `/dubbo/{interface}/configurators`. Items with a v3.0 `match` are not supported
 * yet and are refused, rather than applied more widely than written. A JSON array of URLs (the
 * older form) is read as it is.
 */
export function parseConfiguratorRule(text: string, where: string): Url[] {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (cause) {
    throw new RpcError(`${where}: the configurator rule is not YAML`, Code.InvalidArgument, { cause });
  }
  if (Array.isArray(raw)) return raw.map((u) => Url.parse(String(u)));
  const rule = (raw ?? {}) as Record<string, unknown>;
  const key = typeof rule.key === "string" ? rule.key : "";
  if (key === "") throw new RpcError(`${where}: the configurator rule has no key`, Code.InvalidArgument);
  const application = rule.scope === "application";
  const configVersion = String(rule.configVersion ?? "");
  const ruleEnabled = rule.enabled === undefined ? true : String(rule.enabled) === "true";
  const items = (Array.isArray(rule.configs) ? rule.configs : []) as ConfigItem[];
  return items.flatMap((item, i) => {
    if (item.match !== undefined) {
      throw new RpcError(
        `${where}: configs[${i}] has a v3.0 match condition, which is not supported yet (use addresses, providerAddresses, services, applications)`,
        Code.Unimplemented,
      );
    }
    const parameters = Object.entries(item.parameters ?? {}).map(([k, v]) => [k, String(v)] as const);
    if (parameters.length === 0) {
      throw new RpcError(
        `${where}: configs[${i}] changes no parameter (parameters is empty)`,
        Code.InvalidArgument,
      );
    }
    const addresses = texts(item.addresses).length > 0 ? texts(item.addresses) : [ANY_HOST];
    const providers = texts(item.providerAddresses);
    const enabled = item.type === undefined || item.type === "general" ? ruleEnabled : item.enabled === true;
    const common: Record<string, string> = {
      [CATEGORY_KEY]: CONFIGURATORS_CATEGORY,
      ...(item.side === undefined ? {} : { side: item.side }),
      ...Object.fromEntries(parameters),
      ...(providers.length > 0
        ? { providerAddresses: providers.join(",") }
        : item.side === "provider"
          ? { providerAddresses: addresses.join(",") }
          : {}),
      enabled: String(enabled),
      configVersion,
    };
    const services = application ? (texts(item.services).length > 0 ? texts(item.services) : ["*"]) : [key];
    const apps = application ? [key] : texts(item.applications);
    return addresses.flatMap((address) =>
      services.flatMap((service) => {
        const { path, params } = serviceParts(service);
        const base = Url.parse(`${OVERRIDE_PROTOCOL}://${address}/${path}`).withParams({
          ...params,
          ...common,
        });
        return apps.length === 0 ? [base] : apps.map((app) => base.withParams({ application: app }));
      }),
    );
  });
}
