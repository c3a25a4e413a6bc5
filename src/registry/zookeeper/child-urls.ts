import { Url } from "../../core/index.js";
import type { RegistryLogger } from "../registry.js";
import { isMatch } from "../url-match.js";
import { ENCODED_PROTOCOL_SEPARATOR } from "./zk-paths.js";

/** Children parsed per event-loop turn by `prepare`. */
const PARSES_PER_TURN = 500;

/** A child that is not a URL this subscription wants (unreadable, or not matching). */
const SKIPPED = null;

/**
 * The URLs of one subscription's children on one category path, parsed once per child name: a
 * change of one child among 10 000 decodes and matches that child only, and every unchanged child
 * keeps its `Url` object, which is what lets the directory above keep its invoker without
 * re-merging it. Only the current children are remembered.
 */
export class ChildUrls {
  readonly #subscription: Url;
  readonly #logger: RegistryLogger;
  readonly #describePath: string;
  #byChild = new Map<string, Url | typeof SKIPPED>();

  constructor(subscription: Url, describePath: string, logger: RegistryLogger) {
    this.#subscription = subscription;
    this.#describePath = describePath;
    this.#logger = logger;
  }

  /** The URLs of `children` this subscription matches, in the children's order. */
  urls(children: readonly string[]): Url[] {
    const previous = this.#byChild;
    const next = new Map<string, Url | typeof SKIPPED>();
    const out: Url[] = [];
    for (const child of children) {
      let url = previous.get(child);
      if (url === undefined) url = this.#parse(child);
      next.set(child, url);
      if (url !== SKIPPED) out.push(url);
    }
    this.#byChild = next;
    return out;
  }

  /**
   * Parses the children not seen yet into the cache `urls` reads, a bounded number per event-loop
   * turn, so the first read of 10 000 providers does not hold the loop for the whole parse.
   */
  async prepare(children: readonly string[]): Promise<void> {
    let parsed = 0;
    for (const child of children) {
      if (this.#byChild.has(child)) continue;
      this.#byChild.set(child, this.#parse(child));
      parsed += 1;
      if (parsed % PARSES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  #parse(child: string): Url | typeof SKIPPED {
    // Java reads only children that contain an encoded "://".
    if (!child.includes(ENCODED_PROTOCOL_SEPARATOR)) return SKIPPED;
    let url: Url;
    try {
      url = Url.decode(child);
    } catch (error) {
      this.#logger.warn(`skipping unreadable ZooKeeper node "${child}" under ${this.#describePath}`, error);
      return SKIPPED;
    }
    return isMatch(this.#subscription, url) ? url : SKIPPED;
  }
}
