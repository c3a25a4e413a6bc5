package dubbots.interop;

import java.util.Collection;
import java.util.Map;

/** One protocol line for the Node test: "@@" and a JSON value (other stdout lines are Dubbo's logs). */
final class JsonOut {
  private JsonOut() {}

  static synchronized void line(String json) {
    System.out.println("@@" + json);
    System.out.flush();
  }

  /** A JSON object from alternating keys and values (strings, numbers, booleans, maps, lists). */
  static String object(Object... keysAndValues) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (i > 0) sb.append(',');
      sb.append(quote(String.valueOf(keysAndValues[i]))).append(':').append(value(keysAndValues[i + 1]));
    }
    return sb.append('}').toString();
  }

  /** Longs travel as strings: a JSON number would lose bits beyond 2^53. */
  static String value(Object v) {
    if (v == null) return "null";
    if (v instanceof Boolean || v instanceof Integer) return v.toString();
    if (v instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("{");
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (sb.length() > 1) sb.append(',');
        sb.append(quote(String.valueOf(e.getKey()))).append(':').append(value(e.getValue()));
      }
      return sb.append('}').toString();
    }
    if (v instanceof Collection<?> c) {
      StringBuilder sb = new StringBuilder("[");
      for (Object o : c) {
        if (sb.length() > 1) sb.append(',');
        sb.append(value(o));
      }
      return sb.append(']').toString();
    }
    return quote(v.toString());
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
      else sb.append(c);
    }
    return sb.append('"').toString();
  }
}
