package dubbots.interop;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.security.MessageDigest;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A canonical, deterministic description of what Java decoded: the Java class of every value and its
 * content, recursively. Shared and cyclic objects print as "#n=..." on first sight and "#n" after,
 * numbered in print order. Hash-ordered collections (HashMap, HashSet) are sorted by description.
 * Long strings and byte arrays print as their length and a SHA-256 prefix. A Throwable prints as its
 * class, message, cause and the fields its own (non-java.*) classes declare.
 */
final class Describe {
  static final int MAX_INLINE_STRING = 80;
  static final int MAX_INLINE_BYTES = 64;

  private final IdentityHashMap<Object, Integer> seenCount = new IdentityHashMap<>();
  private final IdentityHashMap<Object, Integer> labels = new IdentityHashMap<>();

  /** Describes all values of one frame with one label space, joined by " | ". */
  static String frame(List<Object> values) {
    Describe d = new Describe();
    for (Object v : values) d.count(v);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) out.append(" | ");
      d.print(values.get(i), out);
    }
    return out.toString();
  }

  private static boolean isIdentityObject(Object v) {
    return v != null
        && !(v instanceof String
            || v instanceof Number
            || v instanceof Boolean
            || v instanceof Character
            || v instanceof Date
            || v instanceof Enum
            || v instanceof TemporalAccessor
            || v instanceof java.time.Duration
            || v instanceof byte[]
            || v.getClass().isArray() && v.getClass().getComponentType().isPrimitive());
  }

  private void count(Object v) {
    if (!isIdentityObject(v)) return;
    Integer n = seenCount.get(v);
    seenCount.put(v, n == null ? 1 : n + 1);
    if (n != null) return;
    if (v instanceof Throwable) {
      Throwable t = (Throwable) v;
      count(t.getCause());
    } else if (v instanceof Collection) {
      for (Object e : (Collection<?>) v) count(e);
    } else if (v instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        count(e.getKey());
        count(e.getValue());
      }
    } else if (v.getClass().isArray()) {
      for (int i = 0; i < Array.getLength(v); i++) count(Array.get(v, i));
    } else {
      for (Field f : fieldsOf(v.getClass())) count(read(f, v));
    }
  }

  private void print(Object v, StringBuilder out) {
    if (v == null) {
      out.append("null");
      return;
    }
    if (isIdentityObject(v)) {
      Integer label = labels.get(v);
      if (label != null) {
        out.append('#').append(label);
        return;
      }
      Integer count = seenCount.get(v);
      if (count != null && count > 1) {
        label = labels.size() + 1;
        labels.put(v, label);
        out.append('#').append(label).append('=');
      }
    }
    Class<?> cl = v.getClass();
    String name = cl.getName();
    if (v instanceof String) {
      out.append(string((String) v));
    } else if (v instanceof Double || v instanceof Float) {
      out.append(name).append(':').append(v);
    } else if (v instanceof Number || v instanceof Boolean) {
      out.append(name).append(':').append(v);
    } else if (v instanceof Character) {
      out.append(name).append(':').append(quote(String.valueOf(v)));
    } else if (v instanceof Date) {
      out.append(name).append(':').append(((Date) v).getTime());
    } else if (v instanceof Enum) {
      out.append(((Enum<?>) v).getDeclaringClass().getName()).append(':').append(((Enum<?>) v).name());
    } else if (v instanceof TemporalAccessor || v instanceof java.time.Duration) {
      out.append(name).append(':').append(v);
    } else if (v instanceof byte[]) {
      out.append("[B:").append(bytes((byte[]) v));
    } else if (v instanceof Throwable) {
      Throwable t = (Throwable) v;
      out.append(name).append("(message=");
      print(t.getMessage(), out);
      out.append(",cause=");
      print(t.getCause(), out);
      for (Field f : fieldsOf(cl)) {
        if (f.getDeclaringClass().getName().startsWith("java.")) continue;
        out.append(',').append(f.getName()).append('=');
        print(read(f, v), out);
      }
      out.append(')');
    } else if (cl.isArray()) {
      out.append(name).append('[');
      for (int i = 0; i < Array.getLength(v); i++) {
        if (i > 0) out.append(',');
        Object e = Array.get(v, i);
        if (cl.getComponentType().isPrimitive()) out.append(e);
        else print(e, out);
      }
      out.append(']');
    } else if (v instanceof Collection) {
      List<Object> items = new ArrayList<>((Collection<?>) v);
      if (v instanceof HashSet) items.sort(Comparator.comparing(Describe::plain));
      out.append(name).append('[');
      for (int i = 0; i < items.size(); i++) {
        if (i > 0) out.append(',');
        print(items.get(i), out);
      }
      out.append(']');
    } else if (v instanceof Map) {
      List<Map.Entry<?, ?>> entries = new ArrayList<>(((Map<?, ?>) v).entrySet());
      if (v instanceof HashMap && !(v instanceof java.util.LinkedHashMap))
        entries.sort(Comparator.comparing(e -> plain(e.getKey())));
      out.append(name).append('{');
      for (int i = 0; i < entries.size(); i++) {
        if (i > 0) out.append(',');
        print(entries.get(i).getKey(), out);
        out.append("=>");
        print(entries.get(i).getValue(), out);
      }
      out.append('}');
    } else {
      out.append(name).append('{');
      boolean first = true;
      for (Field f : fieldsOf(cl)) {
        if (!first) out.append(',');
        first = false;
        out.append(f.getName()).append('=');
        print(read(f, v), out);
      }
      out.append('}');
    }
  }

  /** A label-free description, used only as a sort key. */
  private static String plain(Object v) {
    Describe d = new Describe();
    StringBuilder out = new StringBuilder();
    d.print(v, out);
    return out.toString();
  }

  /** Non-static, non-transient fields of the class and its superclasses, sorted by name. */
  private static List<Field> fieldsOf(Class<?> cl) {
    List<Field> fields = new ArrayList<>();
    for (Class<?> c = cl; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        int mod = f.getModifiers();
        if (Modifier.isStatic(mod) || Modifier.isTransient(mod)) continue;
        f.setAccessible(true);
        fields.add(f);
      }
    }
    fields.sort(Comparator.comparing(Field::getName));
    return fields;
  }

  private static Object read(Field f, Object target) {
    try {
      return f.get(target);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  static String string(String s) {
    if (s.length() <= MAX_INLINE_STRING) return "java.lang.String:" + quote(s);
    byte[] units = new byte[s.length() * 2];
    for (int i = 0; i < s.length(); i++) {
      units[2 * i] = (byte) s.charAt(i);
      units[2 * i + 1] = (byte) (s.charAt(i) >> 8);
    }
    return "java.lang.String:len=" + s.length() + ",sha256=" + sha256(units);
  }

  /** Printable ASCII as is (except quote and backslash); every other UTF-16 unit as \\uXXXX. */
  static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') out.append(c);
      else out.append(String.format("\\u%04x", (int) c));
    }
    return out.append('"').toString();
  }

  static String bytes(byte[] b) {
    if (b.length <= MAX_INLINE_BYTES) return "len=" + b.length + ",hex=" + hex(b);
    return "len=" + b.length + ",sha256=" + sha256(b);
  }

  static String hex(byte[] b) {
    StringBuilder out = new StringBuilder();
    for (byte x : b) out.append(String.format("%02x", x & 0xff));
    return out.toString();
  }

  static String sha256(byte[] b) {
    try {
      return hex(MessageDigest.getInstance("SHA-256").digest(b)).substring(0, 16);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

}
