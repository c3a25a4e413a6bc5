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
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The Java provider's implementation of the interop contract. */
final class JavaInteropService implements InteropService {
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  public int echoInt(int v) { return v; }
  public short echoShort(short v) { return v; }
  public byte echoByte(byte v) { return v; }
  public double echoDouble(double v) { return v; }
  public float echoFloat(float v) { return v; }
  public long echoLong(long v) { return v; }
  public String echoString(String v) { return v; }
  public char echoChar(char v) { return v; }
  public boolean echoBoolean(boolean v) { return v; }
  public byte[] echoBytes(byte[] v) { return v; }
  public Date echoDate(Date v) { return v; }
  public LocalDate echoLocalDate(LocalDate v) { return v; }
  public LocalDateTime echoLocalDateTime(LocalDateTime v) { return v; }
  public Instant echoInstant(Instant v) { return v; }
  public LocalTime echoLocalTime(LocalTime v) { return v; }
  public Duration echoDuration(Duration v) { return v; }
  public BigDecimal echoBigDecimal(BigDecimal v) { return v; }
  public BigInteger echoBigInteger(BigInteger v) { return v; }
  public List<User> echoUsers(List<User> v) { return v; }
  public int[] echoInts(int[] v) { return v; }
  public Set<String> echoSet(Set<String> v) { return v; }
  public Map<Integer, String> echoMap(Map<Integer, String> v) { return v; }
  public Color echoColor(Color v) { return v; }
  public User echoUser(User v) { return v; }
  public Object echoObject(Object v) { return v; }

  public String classOf(Object v) {
    return v == null ? "null" : v.getClass().getName();
  }

  public void fail(String message) {
    throw new IllegalStateException(message, new IllegalArgumentException("root: " + message));
  }

  public String attachment(String key) {
    String value = Contexts.received(key);
    Contexts.reply("reply", "pong-" + value);
    return value;
  }

  public String over(String s) { return "S:" + s; }
  public String over(int i) { return "I:" + i; }
  public String over(String s, int i) { return "SI:" + s + i; }

  public String sleep(int ms) {
    pause(ms);
    return "slept " + ms;
  }

  public int sleepCounted(String tag, int ms) {
    int n = counts.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
    pause(ms);
    return n;
  }

  public int count(String tag) {
    AtomicInteger n = counts.get(tag);
    return n == null ? 0 : n.get();
  }

  private static void pause(int ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
