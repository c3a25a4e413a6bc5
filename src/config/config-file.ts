import { readFile } from "node:fs/promises";
import type * as Yaml from "yaml";
import { Code, loadOnFirstUse, RpcError } from "../core/index.js";
import type { DubboConfigOptions } from "./dubbo-config.js";
import { isRecord } from "./errors.js";
import { fromJavaNames } from "./java-yaml.js";
import { type OptionsTree, readOptionsTree } from "./options-tree.js";
import { closestName } from "./suggest.js";

/** The YAML parser loads with the first file read: an application configured in code never pays for it. */
const yaml = loadOnFirstUse<typeof Yaml>("yaml");

/** Receives each setting the file gives that dubbo-ts ignores (a Java-only key), once. */
export type ConfigNotice = (message: string) => void;

/**
 * Reads a `dubbo.yaml` shaped like Dubbo's (or a Spring Boot `application.yml`): a top-level
 * `dubbo:` mapping with `application`, `registry`/`registries`, `protocol`/`protocols`,
 * `provider`, `consumer`, `services`/`references` (keyed by id) and `service`/`reference` (keyed
 * by interface name, Java's `dubbo.reference.{interface}.*`). Settings use Dubbo's names
 * (`timeout`, `loadbalance`, `shutdown.wait`, `qos-enable`) in kebab-case, snake_case or
 * camelCase, or ours (`timeoutMs`). Java settings with no meaning here go to `notice`; other
 * top-level keys (`spring:`, `server:`, ...) are ignored.
 * @throws RpcError (NotFound when the file cannot be read, InvalidArgument for bad YAML or
 * settings), prefixed with the file's path.
 */
export async function loadConfigFile(
  path: string,
  notice: ConfigNotice = () => {},
): Promise<DubboConfigOptions> {
  return readConfigFile(path, notice);
}

/** As {@link loadConfigFile}, returning the validated tree `loadConfig` merges. */
export async function readConfigFile(path: string, notice: ConfigNotice): Promise<OptionsTree> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new RpcError(`cannot read the Dubbo config file ${path}: ${reason}`, Code.NotFound, { cause });
  }
  return parseConfigText(text, path, notice);
}

/** Parses YAML text as a `dubbo.yaml`; `source` names it in errors. */
function parseConfigText(text: string, source: string, notice: ConfigNotice): OptionsTree {
  // Unique keys and a small alias budget: a config file has no use for duplicate keys or alias bombs.
  const document = yaml().parseDocument(text, { uniqueKeys: true, prettyErrors: true, merge: false });
  const problem = document.errors[0];
  if (problem !== undefined) {
    throw new RpcError(`${source} is not valid YAML: ${problem.message}`, Code.InvalidArgument, {
      cause: problem,
    });
  }
  // A number written in a non-canonical form (`version: 1.0`, `timeout: 0x10`) keeps its text, so
  // nothing is silently changed: text settings get it as written, number settings refuse it.
  yaml().visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === "number" && node.source !== undefined && node.source !== String(node.value)) {
        node.value = node.source;
      }
    },
  });
  let root: unknown;
  try {
    root = document.toJS({ maxAliasCount: 50 });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new RpcError(`${source} could not be read: ${reason}`, Code.InvalidArgument, { cause });
  }
  if (!isRecord(root) || !Object.hasOwn(root, "dubbo")) {
    const keys = isRecord(root) ? Object.keys(root) : [];
    const guess = keys.map((k) => closestName("dubbo", [k])).find((k) => k !== undefined);
    throw new RpcError(
      `${source} has no top-level "dubbo:" mapping${guess === undefined ? "" : ` (did you mean "dubbo" instead of "${guess}"?)`}; expected e.g. "dubbo:\\n  application:\\n    name: demo"`,
      Code.InvalidArgument,
    );
  }
  try {
    return readOptionsTree(
      fromJavaNames(root.dubbo, "dubbo", (message) => notice(`${source}: ${message}`)),
      "dubbo",
    );
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    throw new RpcError(`${source}: ${error.rawMessage}`, error.code, { cause: error });
  }
}
