import type { Url } from "../../core/index.js";
import type { RegistryLogger } from "../registry.js";
import type { ZkClient } from "../zookeeper/zk-client.js";

/** Turns a rule node's text into the URLs a subscriber gets; throws on a rule it cannot use. */
export type RuleParser = (text: string, path: string) => Url[];

/**
 * One config-center node (`/dubbo/config/dubbo/{key}{suffix}`), watched: its rule as URLs, kept
 * current as the node is created, changed and deleted. A change that does not parse (bad YAML,
 * an unknown field) is logged as an error naming the node and the fault, and the rule before it
 * stays in force, as Java's rule listeners keep theirs.
 */
export class RuleNode {
  readonly path: string;
  /** The category of the URLs it gives (`configurators`, `routers`). */
  readonly category: string;
  readonly #parse: RuleParser;
  readonly #logger: RegistryLogger;
  readonly #client: () => ZkClient;
  readonly #onChange: () => void;
  #urls: readonly Url[] = [];
  #closed = false;

  constructor(
    path: string,
    category: string,
    parse: RuleParser,
    client: () => ZkClient,
    onChange: () => void,
    logger: RegistryLogger,
  ) {
    this.path = path;
    this.category = category;
    this.#parse = parse;
    this.#client = client;
    this.#onChange = onChange;
    this.#logger = logger;
  }

  get urls(): readonly Url[] {
    return this.#urls;
  }

  /** Reads the node and sets the watch that reads it again on its next change. */
  async read(): Promise<void> {
    if (this.#closed) return;
    const reread = (): void => {
      this.read().then(
        () => this.#closed || this.#onChange(),
        (error: unknown) => this.#logger.warn(`could not read the rule ${this.path}`, error),
      );
    };
    const client = this.#client();
    const node = await client.getData(this.path, reread);
    if (node === undefined) await client.exists(this.path, reread);
    const text = node?.data.toString("utf8") ?? "";
    if (text.trim() === "") {
      this.#urls = [];
      return;
    }
    try {
      this.#urls = this.#parse(text, this.path);
    } catch (error) {
      const kept = this.#urls.length === 0 ? "no rule is applied" : "the previous rule stays in force";
      this.#logger.error(
        `the rule at ${this.path} was not applied (${kept}): ${String((error as Error).message ?? error)}`,
      );
    }
  }

  close(): void {
    this.#closed = true;
  }
}
