import { Code, DEFAULT_PROTOCOL_NAME, RpcError } from "../core/index.js";
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
  /** Id-keyed sections: the id comes next in the name (`true`), or is implied (`"single"`). */
  readonly ids: false | true | "single";
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
  { prefix: "REFERENCES", section: "references", table: REFERENCE_FIELDS, ids: true },
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

/**
 * Reads `DUBBO_*` environment variables as configuration, over the ids `base` (file and code)
 * configures. The rule: `DUBBO_<SECTION>[_<ID>][_METHODS_<METHOD>]_<SETTING>`, where SECTION is
 * APPLICATION, PROVIDER, CONSUMER, REGISTRY, REGISTRIES, PROTOCOL, PROTOCOLS, SERVICES or
 * REFERENCES; ID and METHOD name a configured entry (camelCase split by `_`, case ignored); SETTING
 * is the setting's Dubbo or camelCase name upper-cased with `.`/camel humps as `_` (TIMEOUT,
 * TIMEOUT_MS, SHUTDOWN_WAIT, FILE_CACHE). DUBBO_REGISTRY_* and DUBBO_PROTOCOL_* set the only
 * registry/protocol (creating one when none exists). Lists are comma-separated. Variables of
 * other sections (e.g. DUBBO_IP_TO_REGISTRY) are ignored; a bad setting in a known section fails,
 * naming the variable.
 */
export function readEnvironment(env: Environment, base: OptionsTree): OptionsTree {
  let tree = emptyTree();
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value === undefined || !name.startsWith("DUBBO_")) continue;
    const rest = name.slice("DUBBO_".length);
    const rule = RULES.find((r) => rest.startsWith(`${r.prefix}_`));
    if (rule === undefined) continue;
    try {
      const raw = rawTree(rule, rest.slice(rule.prefix.length + 1), value, base, name);
      tree = mergeTrees(tree, readOptionsTree(raw, "", true));
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      throw new RpcError(`environment variable ${name}: ${error.rawMessage}`, error.code, { cause: error });
    }
  }
  return tree;
}

/** One variable as the options tree it stands for, e.g. `{ consumer: { timeoutMs: "3000" } }`. */
function rawTree(
  rule: SectionRule,
  tail: string,
  value: string,
  base: OptionsTree,
  name: string,
): Record<string, unknown> {
  if (rule.ids === false) return { [rule.section]: { [settingFor(rule.table, tail, name)]: value } };
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
    const match = matchPrefix(tail, known);
    if (match === undefined) {
      throw new RpcError(
        `no ${rule.section} entry matches the start of "${tail}" (configured ids: ${known.join(", ") || "none"}); the id must already be configured in code or the file`,
        Code.InvalidArgument,
      );
    }
    [id, keyPart] = match;
  }
  if ((rule.section === "services" || rule.section === "references") && keyPart.startsWith("METHODS_")) {
    const entry = base[rule.section][id];
    const methodNames = [
      ...Object.keys(entry?.methods ?? {}),
      ...Object.keys(entry?.definition?.methods ?? {}),
    ];
    const method = matchPrefix(keyPart.slice("METHODS_".length), methodNames);
    if (method === undefined) {
      throw new RpcError(
        `no method of ${rule.section}.${id} matches "${keyPart}" (known methods: ${methodNames.join(", ") || "none"})`,
        Code.InvalidArgument,
      );
    }
    const setting = settingFor(METHOD_SETTING_FIELDS, method[1], name);
    return { [rule.section]: { [id]: { methods: { [method[0]]: { [setting]: value } } } } };
  }
  return { [rule.section]: { [id]: { [settingFor(rule.table, keyPart, name)]: value } } };
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

function settingFor(table: FieldTable<object>, key: string, variable: string): string {
  const byForm = new Map<string, string>();
  for (const accepted of acceptedNames(table)) {
    const field = fieldFor(table, accepted);
    if (field !== undefined) byForm.set(envForm(accepted), field);
  }
  const field = byForm.get(key);
  if (field !== undefined) return field;
  const prefix = variable.slice(0, variable.length - key.length);
  const guess = closestName(key, [...byForm.keys()]);
  throw new RpcError(
    `unknown setting ${key}${guess === undefined ? "" : ` (did you mean ${prefix}${guess}?)`}; accepted: ${[...byForm.keys()].sort().join(", ")}`,
    Code.InvalidArgument,
  );
}
