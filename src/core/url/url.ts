import { EncodedHeadReader, type UrlHead } from "./encoded-head.js";
import { EncodedQueryReader, queryStart } from "./encoded-query.js";
import { ShapedParams } from "./shaped-params.js";
import { javaUrlDecode, javaUrlEncode } from "./url-encoding.js";

/**
 * The configuration bus: every provider, reference, registry and rule is an immutable `Url`,
 * `protocol://user:password@host:port/path?key=value&...`, in the format Java Dubbo writes.
 * Derive new ones with the `with…` methods; nothing mutates a Url.
 */
export interface UrlParts {
  readonly protocol: string;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly params?: Iterable<readonly [string, string]> | Readonly<Record<string, string | number | boolean>>;
}

const DEFAULT_KEY_PREFIX = "default.";

/**
 * Maps this module built for one new Url and hands over whole (`withParams`, `withoutParams`), so
 * the constructor takes them as they are instead of copying them again: a registry that builds
 * 10 000 provider URLs pays one map per URL, not two.
 */
const handedOver = new WeakSet<Map<string, string>>();

function paramMap(params: UrlParts["params"]): Map<string, string> {
  if (params instanceof Map && handedOver.delete(params)) return params as Map<string, string>;
  const map = new Map<string, string>();
  if (params === undefined) return map;
  if (Symbol.iterator in params)
    for (const [k, v] of params as Iterable<readonly [string, string]>) map.set(k, v);
  else for (const [k, v] of Object.entries(params)) map.set(k, String(v));
  return map;
}

/**
 * The read-only parameter view `Url.over` is building a Url around, set only during that
 * constructor call, in place of the parts' `params`: the constructor holds it as it is (no copy, and no `default.` mirroring, since
 * such a view answers for its own keys). A flag for the one call, where a set of every view ever
 * held cost a weak-set entry per merged provider URL.
 */
let heldView: ReadonlyMap<string, string> | undefined;

/** Java mirrors `default.x` to `x` when `x` is absent, so old registrations keep working. */
function withMirroredDefaults(params: Map<string, string>): Map<string, string> {
  for (const k of params.keys()) {
    if (k.startsWith(DEFAULT_KEY_PREFIX) && k.length > DEFAULT_KEY_PREFIX.length) {
      const bare = k.slice(DEFAULT_KEY_PREFIX.length);
      if (!params.has(bare)) params.set(bare, params.get(k) as string);
    }
  }
  return params;
}

/** Shared by every decoded URL (see `EncodedQueryReader`, `EncodedHeadReader`). */
const queryReader = new EncodedQueryReader();
const headReader = new EncodedHeadReader();

/** A decoder's parameters for the constructor: a `ShapedParams` as it is, a fresh `Map` handed over. */
function handOverMap(params: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  return params instanceof Map ? handOver(params) : params;
}

function handOver(params: Map<string, string>): Map<string, string> {
  handedOver.add(params);
  return params;
}

export class Url {
  readonly protocol: string;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly host: string;
  readonly port: number;
  /** The path without its leading slash, usually the service interface. */
  readonly path: string;
  readonly #params: ReadonlyMap<string, string>;
  #string: string | undefined;

  constructor(parts: UrlParts) {
    this.protocol = parts.protocol;
    this.username = parts.username || undefined;
    this.password = parts.password || undefined;
    this.host = parts.host;
    this.port = parts.port;
    this.path = parts.path.startsWith("/") ? parts.path.slice(1) : parts.path;
    const given = heldView ?? parts.params;
    this.#params =
      given !== undefined && (given === heldView || given instanceof ShapedParams)
        ? (given as ReadonlyMap<string, string>)
        : withMirroredDefaults(paramMap(given));
    Object.freeze(this);
  }

  /**
   * A Url over a read-only parameter view, held as it is: the view must answer for its own
   * `default.` keys (the constructor's mirroring is skipped). The registry directory's merged
   * provider URLs are such views over the provider's parsed parameters, so 10 000 providers store
   * their parameters once, not once parsed and once merged.
   */
  static over(parts: Omit<UrlParts, "params">, params: ReadonlyMap<string, string>): Url {
    heldView = params;
    try {
      // Taken as they are (a `Url` is such parts): the view comes through `heldView`, not a copy.
      return new Url(parts);
    } finally {
      heldView = undefined;
    }
  }

  /**
   * Parses a decoded URL string as Java's `URL.valueOf` does. Throws a `TypeError` naming the
   * problem for input that is not a URL.
   */
  static parse(text: string): Url {
    const { parts, query } = splitUrl(text);
    const params: Array<[string, string]> = [];
    if (query !== undefined) {
      for (const pair of query.split("&")) {
        if (pair === "") continue;
        const eq = pair.indexOf("=");
        if (eq < 0) params.push([pair, pair]);
        else if (eq > 0) params.push([pair.slice(0, eq), pair.slice(eq + 1)]);
      }
    }
    return new Url({ ...parts, params });
  }

  /**
   * Parses a ZooKeeper node name written by Java (`URL.encode(url.toFullString())`). Parameters are
   * split on their encoded separators before decoding, as Java's `URLStrParser.parseEncodedStr` does,
   * so a value that itself contained an encoded `&` survives; escapes of either case separate. One
   * pass over the name, one map, one `Url`; names and repeated values are shared between the URLs
   * decoded (see `EncodedQueryReader`): 10 000 providers of one service hold one `application`.
   */
  static decode(encoded: string): Url {
    const queryAt = queryStart(encoded);
    const headEnd = queryAt >= 0 ? queryAt : encoded.length;
    const head: Omit<UrlParts, "params"> = headReader.read(encoded, headEnd) ?? decodeHead(encoded, headEnd);
    return new Url({
      protocol: head.protocol,
      username: head.username,
      password: head.password,
      host: head.host,
      port: head.port,
      path: head.path,
      params: queryAt >= 0 ? handOverMap(queryReader.read(encoded, queryAt)) : [],
    });
  }

  get params(): ReadonlyMap<string, string> {
    return this.#params;
  }

  /** `host:port`, with brackets around an IPv6 host. */
  get address(): string {
    const host = this.host.includes(":") ? `[${this.host}]` : this.host;
    return this.port > 0 ? `${host}:${this.port}` : host;
  }

  /** The `interface` parameter, or the path when there is none. */
  get serviceInterface(): string {
    return this.#params.get("interface") ?? this.path;
  }

  /** `group/interface:version`, leaving out what is not set. */
  get serviceKey(): string {
    return buildServiceKey(this.serviceInterface, this.#params.get("group"), this.#params.get("version"));
  }

  get(key: string): string | undefined {
    return this.#params.get(key);
  }

  has(key: string): boolean {
    return this.#params.has(key);
  }

  string(key: string, fallback: string): string {
    const v = this.#params.get(key);
    return v === undefined || v === "" ? fallback : v;
  }

  number(key: string, fallback: number): number {
    return parseNumber(this.#params.get(key), fallback);
  }

  boolean(key: string, fallback: boolean): boolean {
    return parseBoolean(this.#params.get(key), fallback);
  }

  /** A comma-separated parameter as a list, without empty items. */
  list(key: string): string[] {
    const v = this.#params.get(key);
    return v === undefined || v === "" ? [] : splitList(v);
  }

  /**
   * A method-level parameter: `sayHello.timeout` (Java), then `methods.sayHello.timeout`
   * (dubbo-go), then the plain key.
   */
  methodGet(method: string, key: string): string | undefined {
    return (
      this.#params.get(`${method}.${key}`) ??
      this.#params.get(`methods.${method}.${key}`) ??
      this.#params.get(key)
    );
  }

  methodString(method: string, key: string, fallback: string): string {
    const v = this.methodGet(method, key);
    return v === undefined || v === "" ? fallback : v;
  }

  methodNumber(method: string, key: string, fallback: number): number {
    return parseNumber(this.methodGet(method, key), fallback);
  }

  methodBoolean(method: string, key: string, fallback: boolean): boolean {
    return parseBoolean(this.methodGet(method, key), fallback);
  }

  with(parts: Partial<Omit<UrlParts, "params">>): Url {
    const next = {
      protocol: parts.protocol ?? this.protocol,
      username: "username" in parts ? parts.username : this.username,
      password: "password" in parts ? parts.password : this.password,
      host: parts.host ?? this.host,
      port: parts.port ?? this.port,
      path: parts.path ?? this.path,
    };
    // Shared, not copied: no Url ever changes its map after its constructor.
    const params = this.#params;
    return params instanceof Map ? new Url({ ...next, params: handOver(params) }) : Url.over(next, params);
  }

  /** A new Url with these parameters set (an `undefined` value removes the key). */
  withParams(
    params:
      | Iterable<readonly [string, string]>
      | Readonly<Record<string, string | number | boolean | undefined>>,
  ): Url {
    const next = new Map(this.#params);
    const entries =
      Symbol.iterator in params ? (params as Iterable<readonly [string, string]>) : Object.entries(params);
    for (const [k, v] of entries) {
      if (v === undefined) next.delete(k);
      else next.set(k, String(v));
    }
    return new Url({ ...this.#parts(), params: handOver(next) });
  }

  /** A new Url with these parameters set only where they are absent. */
  withDefaults(params: Readonly<Record<string, string | number | boolean | undefined>>): Url {
    const missing: Record<string, string> = {};
    for (const [k, v] of Object.entries(params))
      if (v !== undefined && !this.#params.has(k)) missing[k] = String(v);
    return Object.keys(missing).length === 0 ? this : this.withParams(missing);
  }

  withoutParams(...keys: string[]): Url {
    const next = new Map(this.#params);
    for (const k of keys) next.delete(k);
    return new Url({ ...this.#parts(), params: handOver(next) });
  }

  /** Java's `toString()`: no credentials, parameters sorted by key, values not escaped. */
  toString(): string {
    this.#string ??= this.#build(false);
    return this.#string;
  }

  /** Java's `toFullString()`: as `toString()` with user and password. */
  toFullString(): string {
    return this.#build(true);
  }

  /** The ZooKeeper node name Java writes: `URLEncoder.encode(toFullString())`. */
  encode(): string {
    return javaUrlEncode(this.toFullString());
  }

  equals(other: Url): boolean {
    return this.toFullString() === other.toFullString();
  }

  #parts(): UrlParts {
    return {
      protocol: this.protocol,
      username: this.username,
      password: this.password,
      host: this.host,
      port: this.port,
      path: this.path,
    };
  }

  #build(withCredentials: boolean): string {
    let out = this.protocol === "" ? "" : `${this.protocol}://`;
    if (withCredentials && this.username !== undefined) {
      out += this.username;
      if (this.password !== undefined) out += `:${this.password}`;
      out += "@";
    }
    out += this.address;
    if (this.path !== "") out += `/${this.path}`;
    if (this.#params.size > 0) {
      const keys = [...this.#params.keys()].sort(compareJavaStrings);
      out += `?${keys.map((k) => `${k}=${this.#params.get(k)}`).join("&")}`;
    }
    return out;
  }
}

/**
 * The head of an encoded URL (`encoded[0, end)`) decoded and parsed in full; a head without
 * credentials teaches `headReader` its protocol and path.
 */
function decodeHead(encoded: string, end: number): Omit<UrlParts, "params"> {
  const { parts } = splitUrl(javaUrlDecode(end < encoded.length ? encoded.slice(0, end) : encoded));
  const head = { ...parts, protocol: queryReader.name(parts.protocol), path: queryReader.name(parts.path) };
  if (head.username !== undefined || head.password !== undefined) return head;
  const plain: UrlHead = { protocol: head.protocol, host: head.host, port: head.port, path: head.path };
  headReader.remember(encoded, end, plain);
  return plain;
}

/**
 * A decoded URL string cut into its parts, as Java's `URL.valueOf` reads it, with its query (after
 * `?`) left unsplit. Throws a `TypeError` naming the problem for input that is not a URL.
 */
function splitUrl(text: string): { parts: Omit<UrlParts, "params">; query: string | undefined } {
  if (typeof text !== "string" || text.trim() === "") {
    throw new TypeError(
      `a URL is required, e.g. dubbo://127.0.0.1:20880/com.foo.DemoService (got ${JSON.stringify(text)})`,
    );
  }
  let rest = text.trim();
  let query: string | undefined;
  const queryAt = rest.indexOf("?");
  if (queryAt >= 0) {
    query = rest.slice(queryAt + 1);
    rest = rest.slice(0, queryAt);
  }
  const schemeEnd = rest.indexOf("://");
  let protocol = "";
  if (schemeEnd >= 0) {
    protocol = rest.slice(0, schemeEnd);
    if (!/^[A-Za-z][A-Za-z0-9+.-]*$/.test(protocol)) {
      throw new TypeError(
        `"${text}" has an invalid protocol "${protocol}" (expected letters, e.g. dubbo://)`,
      );
    }
    rest = rest.slice(schemeEnd + 3);
  } else if (/^[A-Za-z][A-Za-z0-9+.-]*:\//.test(rest)) {
    throw new TypeError(`"${text}" is not a URL: the protocol must be followed by "://"`);
  }
  let path = "";
  const slash = rest.indexOf("/");
  if (slash >= 0) {
    path = rest.slice(slash + 1);
    rest = rest.slice(0, slash);
  }
  let username: string | undefined;
  let password: string | undefined;
  const at = rest.lastIndexOf("@");
  if (at >= 0) {
    const user = rest.slice(0, at);
    const colon = user.indexOf(":");
    username = colon >= 0 ? user.slice(0, colon) : user;
    password = colon >= 0 ? user.slice(colon + 1) : undefined;
    rest = rest.slice(at + 1);
  }
  let host = rest;
  let port = 0;
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]");
    if (close < 0) throw new TypeError(`"${text}" has an unterminated IPv6 address "${rest}"`);
    host = rest.slice(1, close);
    const after = rest.slice(close + 1);
    if (after !== "") {
      if (!/^:\d+$/.test(after)) throw new TypeError(`"${text}" has an invalid port "${after.slice(1)}"`);
      port = Number(after.slice(1));
    }
  } else if (rest.includes(":")) {
    const colon = rest.lastIndexOf(":");
    const portText = rest.slice(colon + 1);
    if (!/^\d+$/.test(portText))
      throw new TypeError(`"${text}" has an invalid port "${portText}" (expected 0-65535)`);
    host = rest.slice(0, colon);
    port = Number(portText);
  }
  if (port > 65535) throw new TypeError(`"${text}" has port ${port}, above 65535`);
  return { parts: { protocol, username, password, host, port, path }, query };
}

/** Java's `String.compareTo` (UTF-16 code units), which TreeMap uses to sort URL parameters. */
function compareJavaStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function buildServiceKey(iface: string, group?: string, version?: string): string {
  let key = iface;
  if (group !== undefined && group !== "") key = `${group}/${key}`;
  if (version !== undefined && version !== "") key = `${key}:${version}`;
  return key;
}

export function splitList(value: string): string[] {
  return value
    .split(/\s*[,]+\s*/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function parseNumber(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

function parseBoolean(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  return value === "true";
}
