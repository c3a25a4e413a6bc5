import { EncodedUrlTemplate, Url } from "../../core/index.js";
import type { RegistryLogger } from "../registry.js";
import { isMatch, MATCH_KEYS } from "../url-match.js";
import { ChildNames, type ChildrenSplice } from "./child-names.js";
import { ENCODED_PROTOCOL_SEPARATOR } from "./zk-paths.js";

/** Children parsed per event-loop turn by `prepare`. */
const PARSES_PER_TURN = 500;

/** A child that is not a URL this subscription wants (unreadable, or not matching). */
const SKIPPED = null;

type Parsed = Url | typeof SKIPPED;

/** The names siblings are read by, and whether its URLs match (undefined: a value `isMatch` reads varies). */
interface ChildTemplate {
  readonly names: EncodedUrlTemplate;
  readonly matches: boolean | undefined;
}

const NO_VARIABLES: ReadonlySet<string> = new Set();

/** A read of the children and what each became, position by position. */
interface ParsedRead {
  readonly children: ChildNames;
  readonly parsed: readonly Parsed[];
}

/** A read's URLs and, when a read before had some, where they differ from its URLs. */
interface UrlsRead {
  readonly urls: Url[];
  readonly change: UrlsChange | undefined;
}

/** `urls` is `before` with `removed` at `before[start, start + removed.length)` replaced by `added`. */
interface UrlsChange {
  readonly before: readonly Url[];
  readonly start: number;
  readonly removed: readonly Url[];
  readonly added: readonly Url[];
}

/**
 * The URLs of one subscription's children on one category path, parsed once per child name: a
 * change of one child among 10 000 decodes and matches that child only, and every unchanged child
 * keeps its `Url` object, which is what lets the directory above keep its invoker without
 * re-merging it. The last children are kept with what each became, position by position, and a
 * new read is compared with them by bytes (see child-names.ts), so a change costs the comparison
 * and what changed, not a string or a lookup per name.
 */
export class ChildUrls {
  readonly #subscription: Url;
  readonly #logger: RegistryLogger;
  readonly #describePath: string;
  #children = ChildNames.EMPTY;
  #parsed: readonly Parsed[] = [];
  /** The URLs of the last read (its parsed children less the skipped ones). */
  #urls: Url[] = [];
  /** How many of the last read's children were skipped. */
  #skipped = 0;
  /** The read `prepare` parsed ahead of the next `urls`, position by position. */
  #ahead: ParsedRead | undefined;
  /**
   * Templates of the names that needed `Url.decode`, each widened by the later such names it
   * fits; the shapes read so far, the latest first: a few, so that providers of two or three shapes
   * interleaved (a rolling upgrade) each fit one instead of replacing a single template per name.
   */
  readonly #templates: ChildTemplate[] = [];

  constructor(subscription: Url, describePath: string, logger: RegistryLogger) {
    this.#subscription = subscription;
    this.#describePath = describePath;
    this.#logger = logger;
  }

  /** The URLs of `children` (distinct names, as ZooKeeper lists them) this subscription matches, in their order. */
  urls(children: ChildNames): Url[] {
    return this.read(children, undefined, undefined).urls;
  }

  /**
   * As `urls`, with where the URLs differ from the last read's; `splice` places `children`
   * against `previous` (the watch's read before), used when that was this object's last read too.
   */
  read(children: ChildNames, previous: ChildNames | undefined, splice: ChildrenSplice | undefined): UrlsRead {
    const ahead = this.#ahead;
    this.#ahead = undefined;
    const before = this.#urls;
    const last = this.#children;
    if (ahead !== undefined && ahead.children === children && last.length === 0) {
      this.#remember(children, ahead.parsed, matched(ahead.parsed, 0, ahead.parsed.length));
      return { urls: this.#urls, change: undefined };
    }
    const place = splice !== undefined && previous === last ? splice : last.spliceTo(children);
    const lastParsed = this.#parsed;
    const parsed = this.#spliced(last, children, place, ahead);
    if (before.length === 0) {
      this.#remember(children, parsed, matched(parsed, 0, parsed.length));
      return { urls: this.#urls, change: undefined };
    }
    // Where the change starts among the URLs: its place among the children less the skipped before it.
    let start = place.start;
    if (this.#skipped > 0) for (let i = 0; i < place.start; i++) if (lastParsed[i] === SKIPPED) start--;
    const removed = matched(lastParsed, place.start, place.beforeEnd);
    const added = matched(parsed, place.start, place.afterEnd);
    // The URLs after the change: native copies of the unchanged head and tail around what was added.
    const urls = before.slice(0, start).concat(added, before.slice(start + removed.length));
    this.#remember(children, parsed, urls);
    return { urls, change: { before, start, removed, added } };
  }

  #remember(children: ChildNames, parsed: readonly Parsed[], urls: Url[]): void {
    this.#children = children;
    this.#parsed = parsed;
    this.#urls = urls;
    this.#skipped = parsed.length - urls.length;
  }

  /**
   * Parses a first read ahead for `urls`, a bounded number per event-loop turn, so the first read
   * of 10 000 providers does not hold the loop for the whole parse.
   */
  async prepare(children: ChildNames): Promise<void> {
    const parsed: Parsed[] = [];
    for (let i = 0; i < children.length; i++) {
      parsed.push(this.#parse(children.at(i)));
      if (parsed.length % PARSES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    this.#ahead = { children, parsed };
  }

  /** The last read's results with the middle that changed looked up or parsed (see child-names.ts). */
  #spliced(
    last: ChildNames,
    children: ChildNames,
    splice: ChildrenSplice,
    ahead: ParsedRead | undefined,
  ): Parsed[] {
    const { start, beforeEnd, afterEnd } = splice;
    const previous = this.#parsed;
    // What left the middle may have moved within it (a rehash reorders ZooKeeper's list).
    const moved = new Map<string, Parsed>();
    if (ahead !== undefined)
      for (let i = 0; i < ahead.children.length; i++) moved.set(ahead.children.at(i), ahead.parsed[i]!);
    for (let i = start; i < beforeEnd; i++) moved.set(last.at(i), previous[i]!);
    const middle: Parsed[] = [];
    for (let i = start; i < afterEnd; i++) {
      const child = children.at(i);
      const known = moved.get(child);
      middle.push(known === undefined ? this.#parse(child) : known);
    }
    // The unchanged head and tail as native copies, not a push per child.
    return previous.slice(0, start).concat(middle, previous.slice(beforeEnd));
  }

  /**
   * A child's URL, or SKIPPED. A name that fits the template is read by it, and matched by it when
   * no value the match reads varies; any other is decoded in full and teaches the template.
   */
  #parse(child: string): Parsed {
    // Java reads only children that contain an encoded "://".
    if (!child.includes(ENCODED_PROTOCOL_SEPARATOR)) return SKIPPED;
    let url: Url;
    try {
      for (const template of this.#templates) {
        const fitted = template.names.decode(child);
        if (fitted === undefined) continue;
        const matches = template.matches ?? isMatch(this.#subscription, fitted);
        return matches ? fitted : SKIPPED;
      }
      url = Url.decode(child);
    } catch (error) {
      this.#logger.warn(`skipping unreadable ZooKeeper node "${child}" under ${this.#describePath}`, error);
      return SKIPPED;
    }
    this.#learn(child, url);
    return isMatch(this.#subscription, url) ? url : SKIPPED;
  }

  #learn(child: string, url: Url): void {
    const templates = this.#templates;
    let names: EncodedUrlTemplate | undefined;
    let at = 0;
    for (; at < templates.length && names === undefined; at++)
      names = templates[at]!.names.widened(child, url);
    if (names === undefined) {
      names = EncodedUrlTemplate.of(child, url, NO_VARIABLES);
      if (names === undefined) return;
      if (templates.length === MAX_TEMPLATES) templates.pop();
    } else templates.splice(at - 1, 1);
    const matchVaries = names.variableNames.some((name) => MATCH_KEYS.has(name));
    templates.unshift({ names, matches: matchVaries ? undefined : isMatch(this.#subscription, names.url) });
  }
}

const MAX_TEMPLATES = 4;

/** The URLs among `parsed[from, to)`. */
function matched(parsed: readonly Parsed[], from: number, to: number): Url[] {
  const out: Url[] = [];
  for (let i = from; i < to; i++) {
    const url = parsed[i];
    if (url !== SKIPPED && url !== undefined) out.push(url);
  }
  return out;
}
