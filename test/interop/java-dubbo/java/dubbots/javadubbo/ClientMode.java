package dubbots.javadubbo;

import com.caucho.hessian.io.Hessian2Input;
import com.foo.User;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends real Dubbo 2 request frames, as a Java consumer writes them, to a provider and prints one
 * JSON line per response read: the echoed id, flags, status, body kind, value and attachments.
 */
final class ClientMode {
  static final String DEMO = "org.apache.dubbo.demo.DemoService";
  static final String USERS = "com.foo.UserService";
  static final long NEGATIVE_ID = -1234567890123456789L;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final PrintStream print;

  private ClientMode(Socket socket, PrintStream print) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
    this.print = print;
  }

  static void run(String host, int port, int readTimeoutMs, PrintStream print) throws IOException {
    try (Socket socket = new Socket()) {
      socket.setTcpNoDelay(true);
      socket.connect(new InetSocketAddress(host, port), readTimeoutMs);
      socket.setSoTimeout(readTimeoutMs);
      new ClientMode(socket, print).runCases();
    }
    print.println("DONE");
  }

  private static Map<String, Object> attachments(String path, Object timeout) {
    Map<String, Object> map = new HashMap<>();
    map.put("path", path);
    map.put("interface", path);
    map.put("version", "0.0.0");
    if (timeout != null) map.put("timeout", timeout);
    return map;
  }

  private static List<String> list(String... items) {
    return new ArrayList<>(Arrays.asList(items));
  }

  private static byte[] request(long id, String dubboVersion, String path, String method, String desc, Object... args)
      throws IOException {
    return request(id, dubboVersion, path, method, desc, attachments(path, 3000), args);
  }

  private static byte[] request(
      long id, String dubboVersion, String path, String method, String desc, Map<String, Object> att, Object... args)
      throws IOException {
    byte[] body = Frames.requestBody(dubboVersion, path, "0.0.0", method, desc, args, att);
    return Frames.frame(Frames.FLAG_REQUEST | Frames.FLAG_TWO_WAY | Frames.HESSIAN2_ID, 0, id, body);
  }

  private void runCases() throws IOException {
    try {
      exchange("sayHello", request(1, "2.0.2", DEMO, "sayHello", "Ljava/lang/String;", "java"));
      exchange(
          "greetUser",
          request(
              2,
              "2.0.2",
              USERS,
              "greet",
              "Lcom/foo/User;",
              attachments(USERS, "5000"),
              new User(7, "ann", list("a", "b"))));
      List<User> users = new ArrayList<>();
      users.add(new User(1, "bob", list("x")));
      users.add(new User(2, "cy", list()));
      exchange("namesOfList", request(3, "2.0.2", USERS, "names", "Ljava/util/List;", users));
      byte[] heartbeat =
          Frames.frame(
              Frames.FLAG_REQUEST | Frames.FLAG_TWO_WAY | Frames.FLAG_EVENT | Frames.HESSIAN2_ID,
              0,
              4,
              Frames.eventBody(null));
      exchange("heartbeat", heartbeat);
      exchange("oldVersion", request(5, "2.0.0", DEMO, "sayHello", "Ljava/lang/String;", "old"));
      exchange("unknownMethod", request(6, "2.0.2", DEMO, "noSuchMethod", "Ljava/lang/String;", "x"));
      exchange("unknownService", request(7, "2.0.2", "com.foo.Missing", "sayHello", "Ljava/lang/String;", "x"));
      exchange("negativeId", request(NEGATIVE_ID, "2.0.2", DEMO, "sayHello", "Ljava/lang/String;", "neg"));
      exchange("bizException", request(8, "2.0.2", USERS, "fail", "Ljava/lang/String;", "zed"));
      exchange("echo", request(9, "2.0.2", DEMO, "$echo", "Ljava/lang/Object;", "ping"));
      // Two frames in one write: the provider must split them and answer both.
      ByteArrayOutputStream two = new ByteArrayOutputStream();
      two.write(request(20, "2.0.2", DEMO, "sayHello", "Ljava/lang/String;", "first"));
      two.write(request(21, "2.0.2", DEMO, "sayHello", "Ljava/lang/String;", "second"));
      Frames.write(out, two.toByteArray());
      report("pipelined", readResponse());
      report("pipelined", readResponse());
    } catch (SocketTimeoutException e) {
      print.println(Json.object("case", Json.quote("readTimeout"), "error", Json.quote(String.valueOf(e))));
    }
  }

  private void exchange(String name, byte[] frame) throws IOException {
    Frames.write(out, frame);
    report(name, readResponse());
  }

  /** The next response; a heartbeat the provider sends meanwhile is answered, as Java consumers do. */
  private Frames.Frame readResponse() throws IOException {
    while (true) {
      Frames.Frame f = Frames.read(in);
      if (!f.isRequest()) return f;
      print.println(Json.object("case", Json.quote("peerRequest"), "id", Json.quote(Long.toString(f.id)),
          "event", Boolean.toString(f.isEvent())));
      if (f.isEvent() && f.isTwoWay()) {
        Frames.write(out, Frames.frame(Frames.FLAG_EVENT | Frames.HESSIAN2_ID, Frames.STATUS_OK, f.id, Frames.eventBody(null)));
      }
    }
  }

  private void report(String name, Frames.Frame f) {
    List<String> fields = new ArrayList<>();
    add(fields, "case", Json.quote(name));
    add(fields, "id", Json.quote(Long.toString(f.id)));
    add(fields, "request", Boolean.toString(f.isRequest()));
    add(fields, "event", Boolean.toString(f.isEvent()));
    add(fields, "serialization", Integer.toString(f.flags & 0x1f));
    add(fields, "status", Integer.toString(f.status));
    try {
      Hessian2Input body = f.body();
      if (f.status != Frames.STATUS_OK) {
        add(fields, "error", Json.value(body.readString()));
      } else if (f.isEvent()) {
        add(fields, "value", Json.value(f.body.length == 0 ? null : body.readObject()));
      } else {
        int kind = body.readInt();
        add(fields, "kind", Integer.toString(kind));
        Object value = kind == Frames.RESPONSE_NULL_VALUE || kind == Frames.RESPONSE_NULL_VALUE_WITH_ATTACHMENTS
            ? null
            : body.readObject();
        add(fields, "value", Json.value(value));
        if (kind >= Frames.RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS) {
          add(fields, "attachments", Json.value(body.readObject()));
        }
      }
    } catch (IOException | RuntimeException e) {
      add(fields, "decodeError", Json.quote(String.valueOf(e)));
    }
    print.println(Json.object(fields.toArray(new String[0])));
  }

  private static void add(List<String> fields, String key, String json) {
    fields.add(key);
    fields.add(json);
  }
}
