import { ParamShape, ShapedParams } from "./shaped-params.js";
import { javaUrlDecode, ownCopy } from "./url-encoding.js";

/** Parameter names and shapes remembered; each table starts over when full. */
const NAMES_MAX = 512;
const SHAPES_MAX = 512;
/**
 * Distinct values remembered per name: past this, the name's values differ per URL (`pid`,
 * `timestamp`) and are decoded without sharing from then on.
 */
const VALUES_PER_NAME_MAX = 256;

/** The second character (lower-cased) of the escapes that separate an encoded URL. */
const QUESTION_MARK = 0x66; // %3F
export const AMPERSAND = 0x36; // %26
export const EQUALS = 0x64; // %3D
export const ESCAPE_LENGTH = 3;
const PERCENT = 0x25;

interface Name {
  readonly encoded: string;
  readonly decoded: string;
  /** encoded value → decoded value, or undefined once the name has too many distinct values. */
  values: Map<string, string> | undefined;
}

/** One `name%3Dvalue` of the URL read last, as it was encoded and decoded. */
interface Pair {
  readonly name: Name;
  /** The whole encoded pair, to recognise it again without cutting it out. */
  readonly encoded: string;
  readonly value: string;
}

/** Where `%3?` (`?` the given second digit, letters in either case) occurs from `from`, or -1. */
export function indexOfEscape(text: string, digit: number, from: number): number {
  const high = digit === AMPERSAND ? 0x32 : 0x33;
  const caseBlind = digit === AMPERSAND ? 0 : 0x20;
  for (let at = text.indexOf("%", from); at >= 0; at = text.indexOf("%", at + 1)) {
    if (text.charCodeAt(at + 1) === high && (text.charCodeAt(at + 2) | caseBlind) === digit) return at;
  }
  return -1;
}

/**
 * Whether `pair` stands in `encoded` at `start` and ends its parameter there: `end` is the end of
 * the name or an encoded `&` (`%26`) starts at it.
 */
function endsPairAt(encoded: string, end: number, pair: string, start: number): boolean {
  if (end < encoded.length) {
    if (encoded.charCodeAt(end) !== PERCENT || encoded.charCodeAt(end + 1) !== 0x32) return false;
    if (encoded.charCodeAt(end + 2) !== AMPERSAND) return false;
  } else if (end > encoded.length) return false;
  return encoded.startsWith(pair, start);
}

/** Where the encoded `?` that starts the parameters is, or -1. */
export function queryStart(encoded: string): number {
  return indexOfEscape(encoded, QUESTION_MARK, 0);
}

/**
 * Reads the parameters of encoded URLs (ZooKeeper node names) into maps. Providers of one service
 * write nearly the same names: each pair is first compared in place with the pair at the same
 * position in the URL read before, and only a pair that differs is cut out and decoded. Names and
 * repeated values are shared (one copy of `application` or `methods` for 10 000 providers); values
 * that differ per provider are recognised per name and never stored, so they cannot crowd out the
 * shared ones.
 */
export class EncodedQueryReader {
  readonly #names = new Map<string, Name>();
  /** The pairs of the URL read last, by position. */
  readonly #last: Pair[] = [];
  /** The shape of the URL read last, while its names were shapeable. */
  #lastShape: ParamShape | undefined;
  readonly #shapes = new Map<string, ParamShape | undefined>();

  /**
   * The parameters after the `%3F` at `queryAt` (see `queryStart`): a `ShapedParams` over the
   * shape of the URL read before when the names are the same, else a `Map` to copy the usual way
   * (a repeated name, or `default.` names the `Url` constructor mirrors).
   */
  read(encoded: string, queryAt: number): ReadonlyMap<string, string> {
    const last = this.#last;
    const values: string[] = [];
    let sameNames = true;
    for (let start = queryAt + ESCAPE_LENGTH; start <= encoded.length; ) {
      const index = values.length;
      let pair = last[index];
      let end: number;
      if (pair !== undefined && endsPairAt(encoded, start + pair.encoded.length, pair.encoded, start)) {
        // The pair read last at this position, and its separator right after it: no scan for it.
        end = start + pair.encoded.length;
      } else {
        end = indexOfEscape(encoded, AMPERSAND, start);
        if (end < 0) end = encoded.length;
        if (end === start) {
          start = end + ESCAPE_LENGTH;
          continue;
        }
        const like = pair;
        pair = this.#pair(encoded, start, end, like);
        if (pair.name !== like?.name) sameNames = false;
        last[index] = pair;
      }
      values.push(pair.value);
      start = end + ESCAPE_LENGTH;
    }
    if (!sameNames || values.length !== this.#lastShape?.names.length) {
      last.length = values.length;
      this.#lastShape = this.#shapeOf(last.map((pair) => pair.name.decoded));
    }
    const shape = this.#lastShape;
    if (shape !== undefined) return new ShapedParams(shape, values);
    const params = new Map<string, string>();
    for (let i = 0; i < values.length; i++) params.set(last[i]!.name.decoded, values[i]!);
    return params;
  }

  /** The shape of these names, or undefined when a name repeats or is a `default.` one. */
  #shapeOf(names: readonly string[]): ParamShape | undefined {
    const key = names.join("&");
    if (this.#shapes.has(key)) return this.#shapes.get(key);
    const shapeable = new Set(names).size === names.length && !names.some((n) => n.startsWith("default."));
    const shape = shapeable ? new ParamShape(names) : undefined;
    if (this.#shapes.size >= SHAPES_MAX) this.#shapes.clear();
    this.#shapes.set(key, shape);
    return shape;
  }

  /** The shared decoded form of a name (or of a protocol or path). */
  name(encoded: string): string {
    return this.#name(encoded).decoded;
  }

  /** Decodes the pair between `start` and `end`; `like` is the pair last seen at its position. */
  #pair(encoded: string, start: number, end: number, like: Pair | undefined): Pair {
    const eq = indexOfEscape(encoded, EQUALS, start);
    if (eq < 0 || eq > end) {
      const name = this.#name(encoded.slice(start, end));
      return { name, encoded: name.encoded, value: name.decoded };
    }
    const sameName =
      like !== undefined &&
      eq - start === like.name.encoded.length &&
      encoded.startsWith(like.name.encoded, start);
    const name = sameName ? like.name : this.#name(encoded.slice(start, eq));
    return {
      name,
      encoded: encoded.slice(start, end),
      value: this.#value(name, encoded.slice(eq + ESCAPE_LENGTH, end)),
    };
  }

  #name(encoded: string): Name {
    let name = this.#names.get(encoded);
    if (name === undefined) {
      if (this.#names.size >= NAMES_MAX) this.#names.clear();
      name = { encoded, decoded: javaUrlDecode(encoded), values: new Map() };
      this.#names.set(encoded, name);
    }
    return name;
  }

  #value(name: Name, encoded: string): string {
    const values = name.values;
    if (values === undefined) return decodedCopy(encoded);
    let decoded = values.get(encoded);
    if (decoded === undefined) {
      decoded = decodedCopy(encoded);
      if (values.size >= VALUES_PER_NAME_MAX) name.values = undefined;
      else values.set(ownCopy(encoded), decoded);
    }
    return decoded;
  }
}

/**
 * A value cut out of a node name, decoded into a string of its own: with nothing to decode,
 * `javaUrlDecode` hands back the slice, which holds the whole name.
 */
export function decodedCopy(encoded: string): string {
  const decoded = javaUrlDecode(encoded);
  return decoded === encoded ? ownCopy(encoded) : decoded;
}
