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
