package dubbots.interop;

import com.foo.BizException;
import com.foo.Color;
import com.foo.Node;
import com.foo.Primitives;
import com.foo.Team;
import com.foo.User;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Named values written by a Java Hessian 2 output (Caucho's or Dubbo's hessian-lite), one frame each (a frame may hold several values
 * written by one output, sharing class definitions and references, as a Dubbo body does). The
 * TypeScript side rebuilds the same values with the same helpers (patternString, patternBytes).
 * Output: one line per fixture, "name TAB hex".
 */
final class Fixtures {
  private final HessianCodec codec;
  private final PrintStream out;

  private Fixtures(HessianCodec codec, PrintStream out) {
    this.codec = codec;
    this.out = out;
  }

  static void writeAll(HessianCodec codec, PrintStream out) throws IOException {
    new Fixtures(codec, out).all();
  }

  private void add(String name, Object... values) throws IOException {
    out.print(name);
    out.print('\t');
    out.println(Describe.hex(codec.encode(values)));
  }

  /** The same cycle the TypeScript side builds: 36 ASCII letters and digits. */
  static String patternString(int length) {
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) s.append(alphabet.charAt(i % alphabet.length()));
    return s.toString();
  }

  static byte[] patternBytes(int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) b[i] = (byte) (i * 31 + 7);
    return b;
  }

  static User user(long id, String name, String... tags) {
    return new User(id, name, new ArrayList<>(Arrays.asList(tags)));
  }

  private void all() throws IOException {
    add("null", (Object) null);
    add("boolean.true", true);
    add("boolean.false", false);

    int[] ints = {
      0, 1, -1, -16, 47, -17, 48, -2048, 2047, -2049, 2048, -262144, 262143, -262145, 262144,
      Integer.MIN_VALUE, Integer.MAX_VALUE
    };
    for (int v : ints) add("int." + v, v);
    add("short.-300", (short) -300);
    add("byte.-7", (byte) -7);

    long[] longs = {
      0L, -8L, 15L, -9L, 16L, -2048L, 2047L, -2049L, 2048L, -262144L, 262143L, -262145L, 262144L,
      Integer.MIN_VALUE, Integer.MAX_VALUE, 2147483648L, -2147483649L, 9007199254740991L,
      -9007199254740991L, 9007199254740992L, 9007199254740993L, -9007199254740993L,
      1234567890123456789L, Long.MAX_VALUE, Long.MIN_VALUE
    };
    for (long v : longs) add("long." + v, v);

    double[] doubles = {
      0.0, 1.0, -1.0, -128.0, 127.0, -129.0, 128.0, -32768.0, 32767.0, 32768.0, 12.25, -0.5, 0.001,
      -0.001, 2.675, 123.456, 2147483.647, 2147483.648, 1.5, 1.23456, Math.PI, 1e300, -1e-300,
      Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, -0.0
    };
    for (double v : doubles) add("double." + v, v);
    add("float.1.5", 1.5f);
    add("float.0.1", 0.1f);
    add("char.A", 'A');

    add("string.empty", "");
    add("string.a", "a");
    add("string.mixed", "h\u00e9llo w\u00f6rld \u2603 \u4e2d\u6587");
    add("string.emoji", "\ud83d\ude00 x \ud83c\udf89");
    for (int n : new int[] {31, 32, 1023, 1024, 32767, 32768, 32769, 65536, 70001}) {
      add("string.pattern." + n, patternString(n));
    }
    add("string.emoji-at-chunk-boundary", patternString(32767) + "\ud83d\ude00tail");
    add("string.mixed.70000", "a\u00e9\u4e2d\ud83d\ude00".repeat(14000));

    for (int n : new int[] {0, 15, 16, 1023, 1024, 8192, 70000}) add("bytes." + n, patternBytes(n));

    add("date.millis", new Date(1700000000123L));
    add("date.minute", new Date(1700000040000L));
    add("date.epoch", new Date(0L));
    add("date.negative", new Date(-86400000L));
    add("date.year-9999", new Date(253402300799999L));

    add("list.arraylist.empty", new ArrayList<>());
    add(
        "list.arraylist.mixed",
        new ArrayList<>(Arrays.asList(1, "a", null, true, 2.5, 9007199254740993L)));
    add("list.arraylist.7", new ArrayList<>(Arrays.asList(1, 2, 3, 4, 5, 6, 7)));
    add("list.arraylist.8", new ArrayList<>(Arrays.asList(1, 2, 3, 4, 5, 6, 7, 8)));
    add("list.linkedlist", new LinkedList<>(Arrays.asList("x", "y")));
    add(
        "list.nested",
        new ArrayList<>(Arrays.asList(new ArrayList<>(Arrays.asList(1, 2)), new ArrayList<>(List.of(3)))));
    List<Object> self = new ArrayList<>();
    self.add("me");
    self.add(self);
    add("list.self", self);

    add("array.int", (Object) new int[] {1, -2, 300000});
    add("array.int.empty", (Object) new int[0]);
    add("array.long", (Object) new long[] {1L, 9007199254740993L});
    add("array.double", (Object) new double[] {0.5, -2.0});
    add("array.boolean", (Object) new boolean[] {true, false});
    add("array.String", (Object) new String[] {"a", null, "b"});
    add("array.Object", (Object) new Object[] {1, "a", null});
    add("array.User", (Object) new User[] {user(1, "ann", "a"), user(2, "bob")});

    Map<String, Integer> stringKeys = new HashMap<>();
    stringKeys.put("a", 1);
    stringKeys.put("b", 2);
    add("map.hashmap.string-keys", stringKeys);
    Map<Integer, String> intKeys = new HashMap<>();
    intKeys.put(1, "one");
    intKeys.put(2, "two");
    intKeys.put(-300, "minus");
    add("map.hashmap.int-keys", intKeys);
    Map<Long, String> longKeys = new HashMap<>();
    longKeys.put(7L, "small");
    longKeys.put(9007199254740993L, "big");
    add("map.hashmap.long-keys", longKeys);
    add("map.hashmap.empty", new HashMap<>());
    Map<String, Integer> tree = new TreeMap<>();
    tree.put("b", 2);
    tree.put("a", 1);
    add("map.treemap", tree);
    Map<String, Integer> linked = new LinkedHashMap<>();
    linked.put("z", 26);
    linked.put("y", 25);
    add("map.linkedhashmap", linked);
    Map<String, List<Integer>> nestedMap = new HashMap<>();
    nestedMap.put("odd", new ArrayList<>(Arrays.asList(1, 3)));
    add("map.nested", nestedMap);

    add("set.hashset", new HashSet<>(Arrays.asList(3, 1, 2)));

    User ann = user(1, "ann", "admin", "dev");
    add("user.simple", ann);
    add("user.nulls", new User(0, null, null));
    add("user.big-id", user(9007199254740993L, "big"));
    add("body.two-users", ann, user(2, "bob", "ops"));
    add("body.same-user-twice", ann, ann);
    add("list.users.shared", new ArrayList<>(Arrays.asList(ann, user(2, "bob"), ann)));
    Team team = new Team();
    team.name = "core";
    team.lead = ann;
    team.members = new ArrayList<>(Arrays.asList(ann, user(2, "bob")));
    add("team.shared-lead", team);
    Node a = new Node("a");
    Node b = new Node("b");
    a.next = b;
    b.next = a;
    add("node.cycle", a);
    Node loop = new Node("loop");
    loop.next = loop;
    add("node.self", loop);

    add("enum.red", Color.RED);
    add("list.enums", new ArrayList<>(Arrays.asList(Color.RED, Color.GREEN, Color.RED)));

    add("bigdecimal.100.06", new BigDecimal("100.06"));
    add("bigdecimal.negative", new BigDecimal("-12345678901234567890.123456789"));
    add("bigdecimal.zero-scale-3", new BigDecimal("0.000"));
    add("bigdecimal.1E+3", new BigDecimal("1E+3"));
    BigDecimal price = new BigDecimal("9.99");
    add("list.bigdecimal.shared", new ArrayList<>(Arrays.asList(price, price)));
    add("biginteger.0", BigInteger.ZERO);
    add("biginteger.1", BigInteger.ONE);
    add("biginteger.big", new BigInteger("12345678901234567890"));
    add("biginteger.negative", new BigInteger("-98765432109876543210987654321"));

    Primitives p = new Primitives();
    p.z = true;
    p.b = -7;
    p.s = -300;
    p.i = 70000;
    p.j = 9007199254740993L;
    p.f = 1.5f;
    p.d = 2.675;
    p.c = 'x';
    p.boxed = null;
    p.str = "s";
    p.when = new Date(1700000000123L);
    p.money = new BigDecimal("100.06");
    p.ints = new int[] {1, 2};
    p.counts = new HashMap<>();
    p.counts.put("k", 3);
    p.color = Color.BLUE;
    add("primitives", p);

    add("time.localdate", LocalDate.of(2024, 2, 29));
    add("time.localtime", LocalTime.of(13, 45, 30, 123000000));
    add("time.localdatetime", LocalDateTime.of(2024, 2, 29, 13, 45, 30, 123000000));
    add("time.instant", Instant.ofEpochSecond(1700000000L, 123000000));
    add("time.duration", Duration.ofSeconds(3723, 500000000));

    add(
        "exception.iae-with-cause",
        new IllegalArgumentException("bad argument", new IllegalStateException("root cause")));
    add("exception.runtime-no-message", new RuntimeException());
    add("exception.custom-field", new BizException("insufficient funds", 42));
  }
}
