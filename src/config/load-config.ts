import { RpcError } from "../core/index.js";
import { readConfigFile } from "./config-file.js";
import { readContainerAddresses } from "./container-env.js";
import { type DubboConfig, type DubboConfigOptions, resolveOptionsTree } from "./dubbo-config.js";
import { type Environment, readEnvironment } from "./env-overrides.js";
import { emptyTree, mergeTrees, type OptionsTree, readOptionsTree } from "./options-tree.js";

export interface LoadConfigOptions {
  /** A `dubbo.yaml` (or Spring Boot `application.yml` with a `dubbo:` tree) to read. */
  readonly file?: string;
  /**
   * `DUBBO_*` variables, applied over the code and the file; pass `process.env` to honour the
   * real environment. Default none. Rule: `DUBBO_<SECTION>[_<ID>][_METHODS_<METHOD>]_<SETTING>`,
   * e.g. DUBBO_APPLICATION_NAME, DUBBO_REGISTRY_ADDRESS, DUBBO_PROTOCOL_PORT,
   * DUBBO_CONSUMER_TIMEOUT, DUBBO_REFERENCES_DEMO_METHODS_SAY_HELLO_RETRIES,
   * DUBBO_REFERENCE_ORG_APACHE_DUBBO_DEMO_DEMOSERVICE_TIMEOUT, and Java's DUBBO_IP_TO_REGISTRY,
   * DUBBO_PORT_TO_REGISTRY, DUBBO_IP_TO_BIND, DUBBO_PORT_TO_BIND (see `readEnvironment` and
   * `readContainerAddresses` for the full rule).
   */
  readonly env?: Environment;
  /** Settings in code: over the file, under the environment. */
  readonly overrides?: DubboConfigOptions;
  /** Told once about each setting that is ignored (a Java-only key, a variable that sets nothing). */
  readonly warn?: (message: string) => void;
}

/**
 * What the application needs beyond the resolved configuration: the sources again, so a service
 * or reference made later in code (`app.export`, `app.refer`) gets the file's and the
 * environment's settings for its interface or id, in the same order.
 */
export interface ConfigLayers {
  /** The file with the code given at creation over it. */
  readonly base: OptionsTree;
  readonly env: Environment;
  /** Warns once per message, across the load and every entry resolved later. */
  readonly warn: (message: string) => void;
}

export interface LoadedConfig {
  readonly config: DubboConfig;
  readonly layers: ConfigLayers;
}

/**
 * One resolved configuration from a file, code and the environment, in Java's order of
 * precedence: the environment over code over the file (as Java's `-D`/environment beat API
 * settings, which beat `dubbo.properties`), merged setting by setting before defaults apply.
 * @throws RpcError naming the source (file path, variable name) and the setting at fault.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<DubboConfig> {
  return (await loadConfigLayers(options)).config;
}

/** As {@link loadConfig}, keeping the layers for services and references made later. */
export async function loadConfigLayers(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const warned = new Set<string>();
  const warn = (message: string): void => {
    if (warned.has(message)) return;
    warned.add(message);
    options.warn?.(message);
  };
  const fromFile = options.file === undefined ? emptyTree() : await readConfigFile(options.file, warn);
  let fromCode = emptyTree();
  if (options.overrides !== undefined) {
    try {
      fromCode = readOptionsTree(options.overrides, "");
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      throw new RpcError(`overrides: ${error.rawMessage}`, error.code, { cause: error });
    }
  }
  const base = mergeTrees(fromFile, fromCode);
  const env = options.env ?? {};
  // The environment addresses ids that the file or the code configure.
  const settings = readEnvironment(env, base);
  for (const notice of settings.notices) warn(notice);
  const protocols = mergeTrees(base, settings.tree).protocols;
  const fromEnv = mergeTrees(settings.tree, {
    ...emptyTree(),
    protocols: readContainerAddresses(env, protocols),
  });
  try {
    return { config: resolveOptionsTree(mergeTrees(base, fromEnv)), layers: { base, env, warn } };
  } catch (error) {
    if (!(error instanceof RpcError) || options.file === undefined) throw error;
    throw new RpcError(
      `${error.rawMessage} (config from ${options.file}, code and environment)`,
      error.code,
      {
        cause: error,
      },
    );
  }
}
