package dubbots.interop;

import com.foo.Color;
import com.foo.InteropService;
import com.foo.User;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.dubbo.rpc.service.EchoService;
import org.apache.dubbo.rpc.service.GenericService;

/**
 * Everything a Java consumer checks against a provider, one @@ line per case: an echo case prints
 * what was sent and what came back as Describe sees them ("same" when they match); the other cases
 * print what Java received.
 */
final class ConsumerCases {
  private final InteropService service;
  private final GenericService generic;
  /** Whether the target is a registry: only then does the consumer see the provider's settings. */
  private final boolean throughRegistry;

  ConsumerCases(InteropService service, GenericService generic, boolean throughRegistry) {
    this.service = service;
    this.generic = generic;
    this.throughRegistry = throughRegistry;
  }

  void runAll() {
    typeTable();
    echo("$echo.string", "hi", () -> ((EchoService) service).$echo("hi"));
    echo("$echo.user", Fixtures.user(5, "echo", "e"), () -> ((EchoService) service).$echo(Fixtures.user(5, "echo", "e")));
    echo("$echo.long", 5L, () -> ((EchoService) service).$echo(5L));
    echo("echoObject.long", 5L, () -> service.echoObject(5L));
    echo("echoObject.bigdecimal", new BigDecimal("1.50"), () -> service.echoObject(new BigDecimal("1.50")));
    report("fail", () -> {
      service.fail("boom");
      return "no exception";
    });
    attachments();
    report("over.String", () -> service.over("a"));
    report("over.int", () -> service.over(3));
    report("over.String,int", () -> service.over("a", 3));
    report("generic.echoUser", () -> generic.$invoke("echoUser", new String[] {"com.foo.User"}, new Object[] {userAsMap()}));
    report("generic.echoLong", () -> generic.$invoke("echoLong", new String[] {"long"}, new Object[] {9007199254740993L}));
    report("generic.echoLong.5", () -> generic.$invoke("echoLong", new String[] {"long"}, new Object[] {5L}));
    if (throughRegistry) registered();
  }

  /** The provider's registered timeout=3000 and sleepCounted retries=0, timeout=300, as Java applies them. */
  void registered() {
    report("registered.timeout", () -> service.sleep(1500));
    String tag = "java-" + System.nanoTime();
    report("registered.retries", () -> {
      String outcome;
      try {
        outcome = "answered " + service.sleepCounted(tag, 600);
      } catch (Exception e) {
        outcome = e.getClass().getSimpleName();
      }
      Thread.sleep(700); // let every attempt reach the provider before counting
      return JsonOut.object("outcome", outcome, "calls", service.count(tag));
    });
  }

  /** Sends req=ping; prints what the provider received and the `reply` it sent back. */
  void attachments() {
    report("attachments", () -> {
      Contexts.attach("req", "ping");
      String received = service.attachment("req");
      return JsonOut.object("received", received, "replied", Contexts.replied("reply"));
    });
  }

  private static Map<String, Object> userAsMap() {
    Map<String, Object> user = new HashMap<>();
    user.put("class", "com.foo.User");
    user.put("id", 7L);
    user.put("name", "gen");
    user.put("tags", new ArrayList<>(Arrays.asList("g")));
    return user;
  }

  private void typeTable() {
    for (int v : new int[] {0, -16, 47, 2047, -262144, Integer.MIN_VALUE, Integer.MAX_VALUE}) echo("int." + v, v, () -> service.echoInt(v));
    echo("short.-32768", (short) -32768, () -> service.echoShort((short) -32768));
    echo("byte.-128", (byte) -128, () -> service.echoByte((byte) -128));
    for (double v : new double[] {0.0, -0.5, 12.25, 1e300, Double.MAX_VALUE, Double.NaN}) echo("double." + v, v, () -> service.echoDouble(v));
    for (float v : new float[] {1.5f, 0.1f}) echo("float." + v, v, () -> service.echoFloat(v));
    for (long v : new long[] {0L, 2047L, -2049L, 2147483648L, 9007199254740993L, Long.MAX_VALUE, Long.MIN_VALUE}) echo("long." + v, v, () -> service.echoLong(v));
    for (String v : new String[] {"", "h\u00e9llo \u2603 \ud83d\ude00", Fixtures.patternString(70000)}) echo("string." + v.length(), v, () -> service.echoString(v));
    echo("char", '\u2603', () -> service.echoChar('\u2603'));
    echo("boolean", true, () -> service.echoBoolean(true));
    for (int n : new int[] {0, 100, 70000}) echo("bytes." + n, Fixtures.patternBytes(n), () -> service.echoBytes(Fixtures.patternBytes(n)));
    echo("Date", new Date(1700000000123L), () -> service.echoDate(new Date(1700000000123L)));
    echo("LocalDate", LocalDate.of(2024, 2, 29), () -> service.echoLocalDate(LocalDate.of(2024, 2, 29)));
    LocalDateTime dateTime = LocalDateTime.of(2024, 2, 29, 13, 45, 30, 123_000_000);
    echo("LocalDateTime", dateTime, () -> service.echoLocalDateTime(dateTime));
    echo("Instant", Instant.ofEpochMilli(1700000000123L), () -> service.echoInstant(Instant.ofEpochMilli(1700000000123L)));
    echo("LocalTime", LocalTime.of(13, 45, 30, 123_000_000), () -> service.echoLocalTime(LocalTime.of(13, 45, 30, 123_000_000)));
    echo("Duration", Duration.ofMillis(1500), () -> service.echoDuration(Duration.ofMillis(1500)));
    for (String v : new String[] {"100.06", "-0.000000001", "123456789012345678901234567890.123"}) echo("BigDecimal." + v, new BigDecimal(v), () -> service.echoBigDecimal(new BigDecimal(v)));
    for (BigInteger v : new BigInteger[] {BigInteger.TWO.pow(100), BigInteger.valueOf(-1)}) echo("BigInteger." + v, v, () -> service.echoBigInteger(v));
    List<User> users = new ArrayList<>(Arrays.asList(Fixtures.user(1, "ann", "a", "b"), Fixtures.user(2, "bob")));
    echo("List<User>", users, () -> service.echoUsers(users));
    echo("int[]", new int[] {1, -2, 300000}, () -> service.echoInts(new int[] {1, -2, 300000}));
    echo("Set<String>", new HashSet<>(Arrays.asList("x", "y")), () -> service.echoSet(new HashSet<>(Arrays.asList("x", "y"))));
    Map<Integer, String> map = new HashMap<>();
    map.put(1, "one");
    map.put(2, "two");
    echo("Map<Integer,String>", map, () -> service.echoMap(map));
    echo("enum", Color.GREEN, () -> service.echoColor(Color.GREEN));
    echo("User", Fixtures.user(9007199254740993L, "ann", "x"), () -> service.echoUser(Fixtures.user(9007199254740993L, "ann", "x")));
  }

  private static String describe(Object value) {
    return Describe.frame(Collections.singletonList(value));
  }

  private static void echo(String name, Object sent, Callable<Object> call) {
    try {
      String want = describe(sent);
      String got = describe(call.call());
      JsonOut.line(JsonOut.object("case", name, "sent", want, "got", got.equals(want) ? "same" : got));
    } catch (Throwable e) {
      JsonOut.line(thrown(name, e));
    }
  }

  /** A case whose result is a string, a map or a JSON object already encoded (starting with "{"). */
  private static void report(String name, Callable<Object> call) {
    try {
      Object result = call.call();
      String json = result instanceof String s && s.startsWith("{") ? s : JsonOut.value(result);
      JsonOut.line("{\"case\":" + JsonOut.quote(name) + ",\"result\":" + json + "}");
    } catch (Throwable e) {
      JsonOut.line(thrown(name, e));
    }
  }

  private static String thrown(String name, Throwable e) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("class", e.getClass().getName());
    error.put("message", String.valueOf(e.getMessage()));
    if (e.getCause() != null) {
      error.put("causeClass", e.getCause().getClass().getName());
      error.put("causeMessage", String.valueOf(e.getCause().getMessage()));
    }
    return JsonOut.object("case", name, "error", error);
  }
}
