import { Code, RpcError } from "../core/index.js";
import { APPLICATION_FIELDS } from "./application-config.js";
import { CONSUMER_FIELDS } from "./consumer-config.js";
import { assertSafeKey, isRecord, joinPath } from "./errors.js";
import { acceptedNames, booleanField, type FieldTable } from "./fields.js";
import { JAVA_ONLY_SECTIONS, JAVA_RENAMES, JAVA_SETTINGS } from "./java-settings.js";
import { METHOD_SETTING_FIELDS } from "./method-config.js";
import { PROTOCOL_FIELDS } from "./protocol-config.js";
import { PROVIDER_FIELDS } from "./provider-config.js";
import { REFERENCE_FIELDS } from "./reference-config.js";
import { REGISTRY_FIELDS } from "./registry-config.js";
import { SERVICE_FIELDS } from "./service-config.js";

type SectionName =
  | "application"
  | "registry"
  | "protocol"
  | "provider"
  | "consumer"
  | "service"
  | "reference"
  | "method";

interface Section {
  readonly table: FieldTable<object>;
  /** Keys the section reads itself besides its fields. */
  readonly structural: readonly string[];
}

const SECTIONS: Readonly<Record<SectionName, Section>> = {
  application: { table: APPLICATION_FIELDS, structural: [] },
  registry: { table: REGISTRY_FIELDS, structural: [] },
  protocol: { table: PROTOCOL_FIELDS, structural: [] },
  provider: { table: PROVIDER_FIELDS, structural: [] },
  consumer: { table: CONSUMER_FIELDS, structural: [] },
  service: { table: SERVICE_FIELDS, structural: ["methods"] },
  reference: { table: REFERENCE_FIELDS, structural: ["methods"] },
  method: { table: METHOD_SETTING_FIELDS, structural: ["name"] },
};

/** Spring's relaxed binding: `qos-enable`, `qos_enable`, `qosEnable` and `QOSENABLE` are one name. */
function relaxed(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, "");
}

const words = (list: string): string[] => list.split(" ");
const RENAMES = new Map(Object.entries(JAVA_RENAMES).map(([java, ours]) => [relaxed(java), ours]));
const ONLY_SECTIONS = new Set(words(JAVA_ONLY_SECTIONS).map(relaxed));

/**
 * A `dubbo:` tree as a Java team writes it (Spring Boot's `application.yml`), in the names the
 * strict reader accepts: keys in kebab-case, snake_case or camelCase become ours; Java's singular
 * `service`/`reference` sections keyed by interface name (`dubbo.reference.{interface}.*`) become
 * `services`/`references` entries with that id and interface; Java settings and sections dubbo-ts
 * has no equivalent for (`scan.base-packages`, `application.logger`, `config-center`) are dropped
 * with a notice. Keys that are neither ours nor Java's stay, so the strict reader refuses them
 * with a suggestion.
 */
export function fromJavaNames(root: unknown, path: string, notice: (message: string) => void): unknown {
  if (!isRecord(root)) return root;
  const out: Record<string, unknown> = {};
  const byInterface: Record<"services" | "references", Record<string, unknown>> = {
    services: {},
    references: {},
  };
  let shutdownHook: boolean | undefined;
  for (const [key, value] of Object.entries(root)) {
    assertSafeKey(key, path);
    const at = joinPath(path, key);
    const name = relaxed(key);
    if (
      name === "application" ||
      name === "registry" ||
      name === "protocol" ||
      name === "provider" ||
      name === "consumer"
    ) {
      out[name] = section(value, name, at, notice);
    } else if (
      name === "registries" ||
      name === "protocols" ||
      name === "services" ||
      name === "references"
    ) {
      const kind =
        name === "registries"
          ? "registry"
          : name === "protocols"
            ? "protocol"
            : name === "services"
              ? "service"
              : "reference";
      out[name] = eachId(value, at, (item, id) => section(item, kind, joinPath(at, id), notice));
    } else if (name === "service" || name === "reference") {
      const plural = name === "service" ? "services" : "references";
      if (isRecord(value)) {
        for (const [iface, item] of Object.entries(value)) {
          assertSafeKey(iface, at);
          const settings = section(item, name, joinPath(at, iface), notice);
          byInterface[plural][iface] = isRecord(settings) ? { interface: iface, ...settings } : settings;
        }
      } else {
        out[key] = value;
      }
    } else if (name === "shutdownhook") {
      shutdownHook = !listenIgnore(value, at);
    } else if (ONLY_SECTIONS.has(name)) {
      notice(`${at} configures what dubbo-ts does not have (a Java Dubbo section); ignored`);
    } else {
      out[key] = value;
    }
  }
  for (const plural of ["services", "references"] as const) {
    const own = isRecord(out[plural]) ? out[plural] : {};
    for (const [iface, item] of Object.entries(byInterface[plural])) {
      if (Object.hasOwn(own, iface)) {
        throw new RpcError(
          `${joinPath(path, plural.slice(0, -1))}.${iface} and ${joinPath(path, plural)}.${iface} configure the same entry; keep one of them`,
          Code.InvalidArgument,
        );
      }
      own[iface] = item;
    }
    if (Object.keys(own).length > 0) out[plural] = own;
  }
  if (shutdownHook !== undefined) {
    const application = isRecord(out.application) ? out.application : {};
    if (Object.hasOwn(application, "shutdownHook")) {
      throw new RpcError(
        `${joinPath(path, "shutdownHook")}.listenIgnore and ${joinPath(path, "application")}.shutdownHook configure the same setting; keep one of them`,
        Code.InvalidArgument,
      );
    }
    out.application = { ...application, shutdownHook };
  }
  return out;
}

const LISTEN_IGNORE = booleanField();

/** Java's `dubbo.shutdownHook.listenIgnore`: true means no shutdown hook (`application.shutdownHook: false`). */
function listenIgnore(value: unknown, path: string): boolean {
  const entries = isRecord(value) ? Object.entries(value) : [];
  const [key, item] = entries[0] ?? [];
  if (entries.length !== 1 || key === undefined || relaxed(key) !== "listenignore") {
    throw new RpcError(
      `${path} takes only listen-ignore (Java's dubbo.shutdownHook.listenIgnore: true turns the shutdown hook off), got ${JSON.stringify(value)}; or set application.shutdownHook`,
      Code.InvalidArgument,
    );
  }
  return LISTEN_IGNORE.read(item, joinPath(path, key), true);
}

function eachId(value: unknown, path: string, map: (item: unknown, id: string) => unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([id, item]) => {
      assertSafeKey(id, path);
      return [id, map(item, id)];
    }),
  );
}

const acceptedByTable = new WeakMap<object, ReadonlyMap<string, string>>();

/** Relaxed spelling → the name the strict reader accepts, for one section. */
function accepted(section: Section): ReadonlyMap<string, string> {
  let names = acceptedByTable.get(section);
  if (names === undefined) {
    const built = new Map<string, string>();
    for (const name of [...acceptedNames(section.table), ...section.structural]) {
      if (!built.has(relaxed(name))) built.set(relaxed(name), name);
    }
    names = built;
    acceptedByTable.set(section, names);
  }
  return names;
}

function section(
  value: unknown,
  name: SectionName,
  path: string,
  notice: (message: string) => void,
): unknown {
  if (!isRecord(value)) return value;
  const spec = SECTIONS[name];
  const names = accepted(spec);
  const javaNames = new Set(words(JAVA_SETTINGS[name] ?? "").map(relaxed));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    assertSafeKey(key, path);
    const spelling = relaxed(key);
    const renamed = RENAMES.get(spelling);
    const target = names.get(spelling) ?? (renamed !== undefined && names.has(renamed) ? renamed : undefined);
    if (target !== undefined && !Object.hasOwn(out, target)) {
      out[target] = target === "methods" ? methods(item, joinPath(path, key), notice) : item;
    } else if (target === undefined && javaNames.has(spelling)) {
      notice(`${joinPath(path, key)} has no effect in dubbo-ts (a Java Dubbo setting); ignored`);
    } else {
      out[key] = item;
    }
  }
  return out;
}

function methods(value: unknown, path: string, notice: (message: string) => void): unknown {
  if (Array.isArray(value)) return value.map((item, i) => section(item, "method", `${path}[${i}]`, notice));
  return eachId(value, path, (item, name) => section(item, "method", joinPath(path, name), notice));
}
