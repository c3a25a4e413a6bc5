import { Code, DEFAULT_PROTOCOL_NAME, RpcError, TRACE_ENV } from "../core/index.js";
import { APPLICATION_FIELDS } from "./application-config.js";
import { CONSUMER_FIELDS } from "./consumer-config.js";
import { acceptedNames, type FieldTable, fieldFor } from "./fields.js";
import { METHOD_SETTING_FIELDS } from "./method-config.js";
import {
  emptyTree,
  mergeTrees,
  type OptionsTree,
  readOptionsTree,
  SINGLE_REGISTRY_ID,
} from "./options-tree.js";
import { PROTOCOL_FIELDS } from "./protocol-config.js";
import { PROVIDER_FIELDS } from "./provider-config.js";
import { REFERENCE_FIELDS } from "./reference-config.js";
import { REGISTRY_FIELDS } from "./registry-config.js";
import { SERVICE_FIELDS } from "./service-config.js";
import { closestName } from "./suggest.js";

export type Environment = Readonly<Record<string, string | undefined>>;

type Section =
  | "application"
  | "provider"
  | "consumer"
  | "registries"
  | "protocols"
  | "services"
  | "references";

interface SectionRule {
  /** `DUBBO_<NAME>_...` */
  readonly prefix: string;
  readonly section: Section;
  readonly table: FieldTable<object>;
  /**
   * Id-keyed sections: the id comes next in the name (`true`), the entry's interface does
   * (`"interface"`, Java's `dubbo.service.{interface}`), or the id is implied (`"single"`).
   */
  readonly ids: false | true | "interface" | "single";
}

const RULES: readonly SectionRule[] = [
  { prefix: "APPLICATION", section: "application", table: APPLICATION_FIELDS, ids: false },
  { prefix: "PROVIDER", section: "provider", table: PROVIDER_FIELDS, ids: false },
  { prefix: "CONSUMER", section: "consumer", table: CONSUMER_FIELDS, ids: false },
  { prefix: "REGISTRY", section: "registries", table: REGISTRY_FIELDS, ids: "single" },
  { prefix: "REGISTRIES", section: "registries", table: REGISTRY_FIELDS, ids: true },
  { prefix: "PROTOCOL", section: "protocols", table: PROTOCOL_FIELDS, ids: "single" },
  { prefix: "PROTOCOLS", section: "protocols", table: PROTOCOL_FIELDS, ids: true },
  { prefix: "SERVICES", section: "services", table: SERVICE_FIELDS, ids: true },
  { prefix: "SERVICE", section: "services", table: SERVICE_FIELDS, ids: "interface" },
  { prefix: "REFERENCES", section: "references", table: REFERENCE_FIELDS, ids: true },
  { prefix: "REFERENCE", section: "references", table: REFERENCE_FIELDS, ids: "interface" },
];

/** `timeoutMs` → TIMEOUT_MS, `shutdown.wait` → SHUTDOWN_WAIT, `demoService` → DEMO_SERVICE. */
export function envForm(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_");
}

/** The spellings of an id or method name in a variable name: DEMO_SERVICE and DEMOSERVICE for demoService. */
function idForms(id: string): string[] {
  return [...new Set([envForm(id), id.toUpperCase().replace(/[^A-Z0-9]+/g, "_")])];
}

/** A variable the environment reading could not use, and why; the application warns once about each. */
type EnvironmentNotice = string;

export interface EnvironmentReading {
  readonly tree: OptionsTree;
  readonly notices: readonly EnvironmentNotice[];
}

/** Only the variables of one service or reference entry, read when `app.export`/`app.refer` builds it. */
export interface EntryScope {
  readonly section: "services" | "references";
  readonly id: string;
}

/** Java's container address variables (`DUBBO_IP_TO_REGISTRY`, ...), read by `readContainerAddresses`. */
const CONTAINER_ADDRESS = /DUBBO_(IP|PORT)_TO_(REGISTRY|BIND)$/;

/**
 * Reads `DUBBO_*` environment variables as configuration, over the entries `base` (file and code)
 * configures. The rule: `DUBBO_<SECTION>[_<ID>][_METHODS_<METHOD>]_<SETTING>`, where SECTION is
 * APPLICATION, PROVIDER, CONSUMER, REGISTRY, REGISTRIES, PROTOCOL, PROTOCOLS, SERVICES or
 * REFERENCES (ID names an entry, camelCase split by `_`, case ignored), or SERVICE or REFERENCE
 * (Java's `dubbo.service.{interface}`: ID is the interface name with `.` as `_`, e.g.
 * ORG_APACHE_DUBBO_DEMO_DEMOSERVICE, and a method may follow it directly, as in Java:
 * DUBBO_REFERENCE_ORG_APACHE_DUBBO_DEMO_DEMOSERVICE_SAYHELLO_TIMEOUT); SETTING is the setting's
 * Dubbo or camelCase name upper-cased with `.`/camel humps as `_` (TIMEOUT, TIMEOUT_MS,
 * SHUTDOWN_WAIT, FILE_CACHE). DUBBO_REGISTRY_* and
 * DUBBO_PROTOCOL_* set the only registry/protocol (creating one when none exists). Lists are
 * comma-separated. A bad value of a known setting fails, naming the variable. A variable that sets
 * nothing (another program's, Kubernetes' `DUBBO_REGISTRY_SERVICE_HOST` for a Service named
 * dubbo-registry, a misspelt setting) becomes a notice. A service or reference variable whose id
 * or interface is not configured yet waits for `app.export`/`app.refer` (read again with `scope`).
 */
export function readEnvironment(env: Environment, base: OptionsTree, scope?: EntryScope): EnvironmentReading {
  let tree = emptyTree();
  const notices: EnvironmentNotice[] = [];
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (
      value === undefined ||
      !name.startsWith("DUBBO_") ||
      CONTAINER_ADDRESS.test(name) ||
      name === TRACE_ENV
    )
      continue;
    const rest = name.slice("DUBBO_".length);
    const rule = RULES.find((r) => rest.startsWith(`${r.prefix}_`));
    if (scope !== undefined && rule?.section !== scope.section) continue;
    if (rule === undefined) {
      notices.push(`environment variable ${name} names no Dubbo setting; ignored`);
      continue;
    }
    try {
      const read = readVariable(rule, rest.slice(rule.prefix.length + 1), value, base, name, scope);
      if (typeof read === "string") notices.push(`environment variable ${name}: ${read}; ignored`);
      else if (read !== undefined) tree = mergeTrees(tree, readOptionsTree(read, "", true));
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      throw new RpcError(`environment variable ${name}: ${error.rawMessage}`, error.code, { cause: error });
    }
  }
  return { tree, notices };
}

/**
 * One variable as the options tree it stands for (`{ consumer: { timeoutMs: "3000" } }`), a
 * notice saying why it sets nothing, or `undefined` when it belongs to an entry not configured
 * (yet, or outside `scope`).
 */
function readVariable(
  rule: SectionRule,
  tail: string,
  value: string,
  base: OptionsTree,
  name: string,
  scope: EntryScope | undefined,
): Record<string, unknown> | string | undefined {
  if (rule.ids === false) {
    const setting = settingFor(rule.table, tail, name);
    return setting.field === undefined ? setting.notice : { [rule.section]: { [setting.field]: value } };
  }
  const known = Object.keys(base[rule.section] ?? {});
  let id: string;
  let keyPart: string;
  if (rule.ids === "single") {
    if (known.length > 1) {
      throw new RpcError(
        `${rule.section} has ${known.length} entries (${known.join(", ")}); name one with DUBBO_${rule.section.toUpperCase()}_<ID>_${tail}`,
        Code.InvalidArgument,
      );
    }
    id = known[0] ?? (rule.section === "registries" ? SINGLE_REGISTRY_ID : DEFAULT_PROTOCOL_NAME);
    keyPart = tail;
  } else {
    const candidates = scope === undefined ? known : known.filter((k) => k === scope.id);
    const match =
      rule.ids === "interface" && (rule.section === "services" || rule.section === "references")
        ? matchInterface(tail, base[rule.section], candidates)
        : matchPrefix(tail, candidates);
    if (match === undefined) {
      if (scope !== undefined || mayNameAnEntry(rule.table, tail)) return undefined;
      return `it names no ${rule.section} entry and no setting`;
    }
    [id, keyPart] = match;
  }
  const setting = settingFor(rule.table, keyPart, name);
  const explicitMethod = keyPart.startsWith("METHODS_");
  // Ours: `<ID>_METHODS_<METHOD>_<SETTING>`; Java's: `<INTERFACE>_<METHOD>_<SETTING>`
  // (`dubbo.reference.{interface}.{method}.*`), tried when the tail is no setting of the entry.
  const methodTail = explicitMethod
    ? keyPart.slice("METHODS_".length)
    : setting.field === undefined && rule.ids === "interface"
      ? keyPart
      : undefined;
  if (methodTail === undefined || (rule.section !== "services" && rule.section !== "references")) {
    return setting.field === undefined
      ? setting.notice
      : { [rule.section]: { [id]: { [setting.field]: value } } };
  }
  const entry = base[rule.section][id];
  const methodNames = [
    ...Object.keys(entry?.methods ?? {}),
    ...Object.keys(entry?.definition?.methods ?? {}),
  ];
  const method = matchPrefix(methodTail, methodNames);
  if (method === undefined) {
    // Without a contract yet (a file's entry), the methods are known when code exports or refers it.
    if (scope === undefined && entry?.definition === undefined) return undefined;
    if (!explicitMethod) return setting.notice;
    throw new RpcError(
      `no method of ${rule.section}.${id} matches "${keyPart}" (known methods: ${methodNames.join(", ") || "none"})`,
      Code.InvalidArgument,
    );
  }
  const methodSetting = settingFor(METHOD_SETTING_FIELDS, method[1], name);
  if (methodSetting.field === undefined) return methodSetting.notice;
  return { [rule.section]: { [id]: { methods: { [method[0]]: { [methodSetting.field]: value } } } } };
}

/** The entry whose interface (Java's OS style: upper case, `.` as `_`) starts `tail`. */
function matchInterface(
  tail: string,
  entries: Readonly<Record<string, { interface?: string; definition?: { interfaceName: string } }>>,
  candidates: readonly string[],
): [string, string] | undefined {
  for (const id of candidates) {
    const entry = entries[id];
    const iface = entry?.interface ?? entry?.definition?.interfaceName ?? id;
    const form = iface.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
    if (tail.startsWith(`${form}_`)) return [id, tail.slice(form.length + 1)];
  }
  return undefined;
}

/** Whether `tail` reads as `<ID>_<SETTING>` or `<ID>_METHODS_<METHOD>_<SETTING>` for an entry to come. */
function mayNameAnEntry(table: FieldTable<object>, tail: string): boolean {
  const forms = [...settingForms(table).keys(), ...settingForms(METHOD_SETTING_FIELDS).keys()];
  return forms.some((form) => tail.endsWith(`_${form}`) && tail.length > form.length + 1);
}

/** The longest name whose spelling starts `tail`, and what follows it. */
function matchPrefix(tail: string, names: readonly string[]): [string, string] | undefined {
  let best: [string, string] | undefined;
  let bestLength = -1;
  for (const name of names) {
    for (const form of idForms(name)) {
      if (tail.startsWith(`${form}_`) && form.length > bestLength) {
        best = [name, tail.slice(form.length + 1)];
        bestLength = form.length;
      }
    }
  }
  return best;
}

const formsByTable = new WeakMap<object, ReadonlyMap<string, string>>();

/** Each setting's environment spelling (TIMEOUT, TIMEOUT_MS) → its field, built once per table. */
function settingForms(table: FieldTable<object>): ReadonlyMap<string, string> {
  let forms = formsByTable.get(table);
  if (forms === undefined) {
    const built = new Map<string, string>();
    for (const accepted of acceptedNames(table)) {
      const field = fieldFor(table, accepted);
      if (field !== undefined) built.set(envForm(accepted), field);
    }
    forms = built;
    formsByTable.set(table, forms);
  }
  return forms;
}

/** The field a variable's SETTING part names, or a notice with the closest spelling. */
function settingFor(
  table: FieldTable<object>,
  key: string,
  variable: string,
): { field: string; notice?: undefined } | { field?: undefined; notice: string } {
  const forms = settingForms(table);
  const field = forms.get(key);
  if (field !== undefined) return { field };
  const prefix = variable.slice(0, variable.length - key.length);
  const guess = closestName(key, [...forms.keys()]);
  return {
    notice: `no setting is called ${key}${guess === undefined ? "" : ` (did you mean ${prefix}${guess}?)`}; accepted: ${[...forms.keys()].sort().join(", ")}`,
  };
}
