/**
 * Java's `URLEncoder.encode(s, "UTF-8")`, which Dubbo uses for ZooKeeper node names: letters,
 * digits and `.-*_` stay, space becomes `+`, every other UTF-8 byte becomes `%XY` (upper-case hex).
 */
export function javaUrlEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()~]|%20/g, (c) =>
    c === "%20" ? "+" : `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Java's `URLDecoder.decode(s, "UTF-8")`: `+` is a space, `%XY` are UTF-8 bytes. */
export function javaUrlDecode(text: string): string {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch (cause) {
    throw new URIError(
      `"${text}" is not validly URL-encoded (a % must be followed by two hex digits of UTF-8)`,
      {
        cause,
      },
    );
  }
}

/** Slices this long are views that keep the whole string they were cut from alive (V8's sliced strings). */
const SLICE_VIEW_LENGTH = 13;

/**
 * The string as its own copy, not a view into the ~400-byte node name it was cut from, which a
 * provider's `Url` would otherwise keep alive (a 13-digit `timestamp` did, for every provider).
 * `decodeURIComponent` of text whose `%` are escaped back makes a flat copy.
 */
export function ownCopy(slice: string): string {
  if (slice.length < SLICE_VIEW_LENGTH) return slice;
  return decodeURIComponent(slice.includes("%") ? slice.replaceAll("%", "%25") : slice);
}
