import { RpcError } from "../core/index.js";
import { readConfigFile } from "./config-file.js";
import { type DubboConfig, type DubboConfigOptions, resolveOptionsTree } from "./dubbo-config.js";
import { type Environment, readEnvironment } from "./env-overrides.js";
import { emptyTree, mergeTrees, readOptionsTree } from "./options-tree.js";

export interface LoadConfigOptions {
  /** A `dubbo.yaml` to read first. */
  readonly file?: string;
  /**
   * `DUBBO_*` variables applied over the file; pass `process.env` to honour the real environment.
   * Default none. Rule: `DUBBO_<SECTION>[_<ID>][_METHODS_<METHOD>]_<SETTING>`, e.g.
   * DUBBO_APPLICATION_NAME, DUBBO_REGISTRY_ADDRESS, DUBBO_PROTOCOL_PORT, DUBBO_CONSUMER_TIMEOUT,
   * DUBBO_REFERENCES_DEMO_TIMEOUT, DUBBO_REFERENCES_DEMO_METHODS_SAY_HELLO_RETRIES (ids and methods
   * must be configured by the file or code; see `readEnvironment` for the full rule).
   */
  readonly env?: Environment;
  /** Settings in code, applied over the file and the environment. */
  readonly overrides?: DubboConfigOptions;
}

/**
 * One resolved configuration from a file, the environment and code, in that order of precedence
 * (code wins), merged setting by setting before defaults are applied.
 * @throws RpcError naming the source (file path, variable name) and the setting at fault.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<DubboConfig> {
  const fromFile = options.file === undefined ? emptyTree() : await readConfigFile(options.file);
  let fromCode = emptyTree();
  if (options.overrides !== undefined) {
    try {
      fromCode = readOptionsTree(options.overrides, "");
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      throw new RpcError(`overrides: ${error.rawMessage}`, error.code, { cause: error });
    }
  }
  // The environment addresses ids that the file or the code configure.
  const fromEnv = readEnvironment(options.env ?? {}, mergeTrees(fromFile, fromCode));
  const merged = mergeTrees(mergeTrees(fromFile, fromEnv), fromCode);
  try {
    return resolveOptionsTree(merged);
  } catch (error) {
    if (!(error instanceof RpcError) || options.file === undefined) throw error;
    throw new RpcError(
      `${error.rawMessage} (config from ${options.file}, environment and code)`,
      error.code,
      {
        cause: error,
      },
    );
  }
}
