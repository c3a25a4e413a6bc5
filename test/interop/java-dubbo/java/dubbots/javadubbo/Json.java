package dubbots.javadubbo;

import com.foo.User;
import java.util.Collection;
import java.util.Map;

/** Describes what Caucho decoded as one line of JSON, so the Node test can assert on it. */
final class Json {
  private Json() {}

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
          else sb.append(c);
        }
      }
    }
    return sb.append('"').toString();
  }

  /** Longs travel as strings: a JSON number would lose bits beyond 2^53. */
  static String value(Object v) {
    if (v == null) return "null";
    if (v instanceof String s) return quote(s);
    if (v instanceof Boolean b) return b.toString();
    if (v instanceof Long l) return quote(l.toString());
    if (v instanceof Number n) return n.toString();
    if (v instanceof User u) {
      return "{\"$class\":\"com.foo.User\",\"id\":"
          + quote(Long.toString(u.id))
          + ",\"name\":"
          + value(u.name)
          + ",\"tags\":"
          + value(u.tags)
          + "}";
    }
    if (v instanceof Throwable t) {
      return "{\"$throwable\":" + quote(t.getClass().getName()) + ",\"message\":" + value(t.getMessage()) + "}";
    }
    if (v instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("{");
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) sb.append(',');
        first = false;
        sb.append(quote(String.valueOf(e.getKey()))).append(':').append(value(e.getValue()));
      }
      return sb.append('}').toString();
    }
    if (v instanceof Collection<?> c) {
      StringBuilder sb = new StringBuilder("[");
      boolean first = true;
      for (Object o : c) {
        if (!first) sb.append(',');
        first = false;
        sb.append(value(o));
      }
      return sb.append(']').toString();
    }
    return "{\"$other\":" + quote(v.getClass().getName() + ":" + v) + "}";
  }

  /** A JSON object from alternating keys and already-encoded JSON values. */
  static String object(String... keysAndJson) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < keysAndJson.length; i += 2) {
      if (i > 0) sb.append(',');
      sb.append(quote(keysAndJson[i])).append(':').append(keysAndJson[i + 1]);
    }
    return sb.append('}').toString();
  }
}
