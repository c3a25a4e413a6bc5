import { Url } from "../../core/index.js";
import type { RegistryLogger } from "../registry.js";
import { isMatch } from "../url-match.js";
import { childrenSplice } from "./children-splice.js";
import { ENCODED_PROTOCOL_SEPARATOR } from "./zk-paths.js";

/** Children parsed per event-loop turn by `prepare`. */
const PARSES_PER_TURN = 500;

/** A child that is not a URL this subscription wants (unreadable, or not matching). */
const SKIPPED = null;

type Parsed = Url | typeof SKIPPED;

/** A read of the children and what each became, position by position. */
interface ParsedRead {
  readonly children: readonly string[];
  readonly parsed: readonly Parsed[];
}

/**
 * The URLs of one subscription's children on one category path, parsed once per child name: a
 * change of one child among 10 000 decodes and matches that child only, and every unchanged child
 * keeps its `Url` object, which is what lets the directory above keep its invoker without
 * re-merging it. The last children are kept with what each became, position by position, and a
 * new read is compared with them in place (see children-splice.ts), so a change costs the
 * comparison and what changed, not a lookup of every name.
 */
export class ChildUrls {
  readonly #subscription: Url;
  readonly #logger: RegistryLogger;
  readonly #describePath: string;
  #children: readonly string[] = [];
  #parsed: readonly Parsed[] = [];
  /** The read `prepare` parsed ahead of the next `urls`, position by position. */
  #ahead: ParsedRead | undefined;

  constructor(subscription: Url, describePath: string, logger: RegistryLogger) {
    this.#subscription = subscription;
    this.#describePath = describePath;
    this.#logger = logger;
  }

  /** The URLs of `children` (distinct names, as ZooKeeper lists them) this subscription matches, in their order. */
  urls(children: readonly string[]): Url[] {
    const ahead = this.#ahead;
    this.#ahead = undefined;
    const parsed =
      ahead !== undefined && ahead.children === children && this.#children.length === 0
        ? ahead.parsed
        : this.#spliced(children, ahead);
    this.#children = children;
    this.#parsed = parsed;
    const out: Url[] = [];
    for (const url of parsed) if (url !== SKIPPED) out.push(url);
    return out;
  }

  /**
   * Parses a first read ahead for `urls`, a bounded number per event-loop turn, so the first read
   * of 10 000 providers does not hold the loop for the whole parse.
   */
  async prepare(children: readonly string[]): Promise<void> {
    const parsed: Parsed[] = [];
    for (const child of children) {
      parsed.push(this.#parse(child));
      if (parsed.length % PARSES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    this.#ahead = { children, parsed };
  }

  /** The last read's results with the middle that changed looked up or parsed (see children-splice.ts). */
  #spliced(children: readonly string[], ahead: ParsedRead | undefined): Parsed[] {
    const { start, beforeEnd, afterEnd } = childrenSplice(this.#children, children);
    const previous = this.#parsed;
    // What left the middle may have moved within it (a rehash reorders ZooKeeper's list).
    const moved = new Map<string, Parsed>();
    if (ahead !== undefined)
      for (let i = 0; i < ahead.children.length; i++) moved.set(ahead.children[i]!, ahead.parsed[i]!);
    for (let i = start; i < beforeEnd; i++) moved.set(this.#children[i]!, previous[i]!);
    const parsed: Parsed[] = previous.slice(0, start);
    for (let i = start; i < afterEnd; i++) {
      const child = children[i]!;
      const known = moved.get(child);
      parsed.push(known === undefined ? this.#parse(child) : known);
    }
    for (let i = beforeEnd; i < previous.length; i++) parsed.push(previous[i]!);
    return parsed;
  }

  #parse(child: string): Parsed {
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
