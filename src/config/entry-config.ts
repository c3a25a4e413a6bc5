import { Code, RpcError } from "../core/index.js";
import type { DubboConfig } from "./dubbo-config.js";
import { readEnvironment } from "./env-overrides.js";
import type { ConfigLayers } from "./load-config.js";
import { emptyTree, mergeTrees, type OptionsTree, readOptionsTree } from "./options-tree.js";
import { type ReferenceConfig, type ResolvedReferenceConfig, resolveReference } from "./reference-config.js";
import { type ResolvedServiceConfig, resolveService, type ServiceConfig } from "./service-config.js";

/** Which configured entry a service or reference made in code takes its settings from. */
export interface EntryChoice {
  /** The interface it serves or calls. */
  readonly interfaceName: string;
  /** An entry id under `services`/`references`; default the one entry for the interface. */
  readonly id?: string;
}

/**
 * A service exported in code, with its settings from every source in Java's order: the
 * environment over the code (`options`) over the file's entry. The file's entry is
 * `services.<id>`, else the entry whose id or `interface` is the interface name (Java's
 * `dubbo.service.{interface}.*`).
 * @throws RpcError when several entries configure the interface and no id picks one, or a
 * setting is invalid.
 */
export function resolveServiceEntry(
  layers: ConfigLayers,
  config: DubboConfig,
  choice: EntryChoice,
  options: ServiceConfig,
): ResolvedServiceConfig {
  const { id, tree } = entry(layers, "services", choice, options);
  return resolveService(tree.services[id] ?? {}, { id, provider: config.provider, path: `services.${id}` });
}

/** As {@link resolveServiceEntry}, for a reference (`references.<id>`, `dubbo.reference.{interface}.*`). */
export function resolveReferenceEntry(
  layers: ConfigLayers,
  config: DubboConfig,
  choice: EntryChoice,
  options: ReferenceConfig,
): ResolvedReferenceConfig {
  const { id, tree } = entry(layers, "references", choice, options);
  return resolveReference(tree.references[id] ?? {}, {
    id,
    consumer: config.consumer,
    path: `references.${id}`,
  });
}

/** The merged sources of one entry, as a tree holding only `<section>.<id>`. */
function entry(
  layers: ConfigLayers,
  section: "services" | "references",
  choice: EntryChoice,
  options: object,
): { id: string; tree: OptionsTree } {
  const id =
    choice.id ?? entryForInterface(layers.base, section, choice.interfaceName) ?? choice.interfaceName;
  const configured = layers.base[section][id];
  const fromBase = { ...emptyTree(), [section]: configured === undefined ? {} : { [id]: configured } };
  const withCode = mergeTrees(fromBase, readOptionsTree({ [section]: { [id]: options } }, ""));
  const fromEnv = readEnvironment(layers.env, withCode, { section, id });
  for (const notice of fromEnv.notices) layers.warn(notice);
  return { id, tree: mergeTrees(withCode, fromEnv.tree) };
}

/** The one entry configuring `interfaceName` (by id or by `interface`), if any. */
function entryForInterface(
  base: OptionsTree,
  section: "services" | "references",
  interfaceName: string,
): string | undefined {
  const ids = Object.entries(base[section])
    .filter(
      ([id, item]) =>
        id === interfaceName || (item.interface ?? item.definition?.interfaceName) === interfaceName,
    )
    .map(([id]) => id);
  if (ids.length > 1) {
    throw new RpcError(
      `${section} ${ids.join(", ")} all configure ${interfaceName}; pick one with the id option, e.g. { id: "${ids[0]}" }`,
      Code.InvalidArgument,
    );
  }
  return ids[0];
}
