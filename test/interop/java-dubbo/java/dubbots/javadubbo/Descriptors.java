package dubbots.javadubbo;

import java.util.ArrayList;
import java.util.List;

/** JVM parameter descriptors ("ILjava/lang/String;[J") to classes, as ReflectUtils.desc2classArray. */
final class Descriptors {
  private Descriptors() {}

  static Class<?>[] parse(String desc) {
    List<Class<?>> out = new ArrayList<>();
    int i = 0;
    while (i < desc.length()) {
      int start = i;
      while (desc.charAt(i) == '[') i++;
      char c = desc.charAt(i);
      int end = c == 'L' ? desc.indexOf(';', i) + 1 : i + 1;
      out.add(toClass(desc.substring(start, end)));
      i = end;
    }
    return out.toArray(new Class<?>[0]);
  }

  private static Class<?> toClass(String d) {
    switch (d) {
      case "Z": return boolean.class;
      case "B": return byte.class;
      case "C": return char.class;
      case "D": return double.class;
      case "F": return float.class;
      case "I": return int.class;
      case "J": return long.class;
      case "S": return short.class;
      default:
        String name = d.startsWith("[") ? d.replace('/', '.') : d.substring(1, d.length() - 1).replace('/', '.');
        try {
          return Class.forName(name);
        } catch (ClassNotFoundException e) {
          return Object.class;
        }
    }
  }
}
