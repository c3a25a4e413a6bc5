import { javaUrlEncode, ownCopy } from "./url-encoding.js";

/** A decoded URL's parts before its parameters. */
export interface UrlHead {
  readonly protocol: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
}

export const PORT_MAX = 65535;
/** The encoded `:` Java's `URLEncoder` writes between host and port. */
export const ENCODED_COLON = "%3A";

/**
 * Reads the head of an encoded URL (a ZooKeeper node name, `dubbo%3A%2F%2F10.0.0.1%3A20880%2Fcom.foo.S`)
 * without decoding it, when it has the protocol and path of the head read before around a plain
 * `host:port`: providers of one service differ there only by address. A plain host is letters,
 * digits, `.`, `-` and `_` (characters `URLEncoder` leaves as they are, so the encoded host is the
 * decoded one); anything else (credentials, IPv6, escapes, no port) is left to the full parse,
 * which `remember` then learns the protocol and path from.
 */
export class EncodedHeadReader {
  /** `protocol://` and `/path` of the head read before, as `URLEncoder` writes them. */
  #prefix = "";
  #suffix = "";
  #protocol = "";
  #path = "";

  /** The head of `encoded[0, end)`, or undefined when it is not the shape above. */
  read(encoded: string, end: number): UrlHead | undefined {
    const prefix = this.#prefix;
    if (prefix === "" || !encoded.startsWith(prefix)) return undefined;
    const authorityEnd = end - this.#suffix.length;
    if (authorityEnd <= prefix.length || !encoded.startsWith(this.#suffix, authorityEnd)) return undefined;
    const colon = encoded.lastIndexOf(ENCODED_COLON, authorityEnd - 1);
    if (colon <= prefix.length) return undefined;
    for (let i = prefix.length; i < colon; i++) if (!isPlainHostChar(encoded.charCodeAt(i))) return undefined;
    const portStart = colon + ENCODED_COLON.length;
    if (portStart === authorityEnd) return undefined;
    let port = 0;
    for (let i = portStart; i < authorityEnd; i++) {
      const digit = encoded.charCodeAt(i) - 0x30;
      if (digit < 0 || digit > 9) return undefined;
      port = port * 10 + digit;
      if (port > PORT_MAX) return undefined; // the full parse names the problem
    }
    return {
      protocol: this.#protocol,
      host: ownCopy(encoded.slice(prefix.length, colon)),
      port,
      path: this.#path,
    };
  }

  /** Learns the protocol and path of a head the full parse read (with no credentials). */
  remember(encoded: string, end: number, head: UrlHead): void {
    const prefix = javaUrlEncode(`${head.protocol}://`);
    const suffix = javaUrlEncode(`/${head.path}`);
    if (
      head.protocol === "" ||
      !encoded.startsWith(prefix) ||
      !encoded.startsWith(suffix, end - suffix.length)
    )
      return;
    this.#prefix = prefix;
    this.#suffix = suffix;
    this.#protocol = head.protocol;
    this.#path = head.path;
  }
}

export function isPlainHostChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x2e || // .
    c === 0x2d || // -
    c === 0x5f // _
  );
}
