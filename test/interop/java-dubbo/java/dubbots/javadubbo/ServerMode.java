package dubbots.javadubbo;

import com.caucho.hessian.io.Hessian2Input;
import com.foo.User;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Dubbo 2 provider written against raw frames: answers DemoService.sayHello, $echo and
 * com.foo.UserService (greet, names, listUsers, fail → IllegalArgumentException), answers heartbeats,
 * sends one heartbeat of its own per connection, and prints a JSON line for everything it sees.
 */
final class ServerMode {
  static final long SERVER_HEARTBEAT_ID = 777_000_000_000L;
  private final PrintStream print;
  private final AtomicInteger connections = new AtomicInteger();

  private ServerMode(PrintStream print) {
    this.print = print;
  }

  static void run(PrintStream print) throws IOException {
    ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    print.println("LISTENING " + server.getLocalPort());
    new ServerMode(print).acceptLoop(server);
  }

  private void acceptLoop(ServerSocket server) throws IOException {
    while (true) {
      Socket socket = server.accept();
      socket.setTcpNoDelay(true);
      int n = connections.incrementAndGet();
      line(Json.object("type", Json.quote("connected"), "count", Integer.toString(n)));
      Thread t = new Thread(() -> serve(socket), "conn-" + n);
      t.setDaemon(true);
      t.start();
    }
  }

  private synchronized void line(String json) {
    print.println(json);
    print.flush();
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      boolean heartbeatSent = false;
      while (true) {
        Frames.Frame f;
        try {
          f = Frames.read(in);
        } catch (EOFException e) {
          line(Json.object("type", Json.quote("closed")));
          return;
        }
        if (!f.isRequest()) {
          line(
              Json.object(
                  "type", Json.quote(f.isEvent() ? "heartbeatReply" : "response"),
                  "id", Json.quote(Long.toString(f.id)),
                  "status", Integer.toString(f.status)));
          continue;
        }
        if (f.isEvent()) {
          line(Json.object("type", Json.quote("heartbeat"), "id", Json.quote(Long.toString(f.id))));
          if (f.isTwoWay()) {
            byte[] body = Frames.eventBody(null);
            Frames.write(out, Frames.frame(Frames.FLAG_EVENT | Frames.HESSIAN2_ID, Frames.STATUS_OK, f.id, body));
          }
          continue;
        }
        Frames.write(out, answer(f));
        if (!heartbeatSent) {
          heartbeatSent = true;
          byte[] body = Frames.eventBody(null);
          int flags = Frames.FLAG_REQUEST | Frames.FLAG_TWO_WAY | Frames.FLAG_EVENT | Frames.HESSIAN2_ID;
          Frames.write(out, Frames.frame(flags, 0, SERVER_HEARTBEAT_ID, body));
        }
      }
    } catch (IOException | RuntimeException e) {
      line(Json.object("type", Json.quote("connectionError"), "error", Json.quote(String.valueOf(e))));
    }
  }

  private byte[] answer(Frames.Frame f) throws IOException {
    Hessian2Input in = f.body();
    String dubboVersion = in.readString();
    String path = in.readString();
    String version = in.readString();
    String method = in.readString();
    String desc = in.readString();
    Class<?>[] types = Descriptors.parse(desc);
    Object[] args = new Object[types.length];
    for (int i = 0; i < types.length; i++) args[i] = in.readObject(types[i]);
    Object attachments = in.readObject();
    List<Object> argList = new ArrayList<>(List.of(args));
    line(
        Json.object(
            "type", Json.quote("request"),
            "id", Json.quote(Long.toString(f.id)),
            "twoWay", Boolean.toString(f.isTwoWay()),
            "serialization", Integer.toString(f.flags & 0x1f),
            "dubboVersion", Json.quote(dubboVersion),
            "path", Json.quote(path),
            "version", Json.quote(version),
            "method", Json.quote(method),
            "descriptor", Json.quote(desc),
            "args", Json.value(argList),
            "attachments", Json.value(attachments)));
    boolean attach = supportsResponseAttachments(dubboVersion);
    Object value;
    try {
      value = invoke(path, method, desc, args);
    } catch (UnknownTarget e) {
      return Frames.frame(Frames.HESSIAN2_ID, Frames.STATUS_SERVICE_ERROR, f.id, stringBody(e.getMessage()));
    } catch (RuntimeException e) {
      Frames.Body b = new Frames.Body();
      b.out.writeInt(attach ? Frames.RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS : Frames.RESPONSE_WITH_EXCEPTION);
      b.out.writeObject(e);
      if (attach) b.out.writeObject(responseAttachments());
      return Frames.frame(Frames.HESSIAN2_ID, Frames.STATUS_OK, f.id, b.finish());
    }
    Frames.Body b = new Frames.Body();
    if (value == null) {
      b.out.writeInt(attach ? Frames.RESPONSE_NULL_VALUE_WITH_ATTACHMENTS : Frames.RESPONSE_NULL_VALUE);
    } else {
      b.out.writeInt(attach ? Frames.RESPONSE_VALUE_WITH_ATTACHMENTS : Frames.RESPONSE_VALUE);
      b.out.writeObject(value);
    }
    if (attach) b.out.writeObject(responseAttachments());
    return Frames.frame(Frames.HESSIAN2_ID, Frames.STATUS_OK, f.id, b.finish());
  }

  private static byte[] stringBody(String s) throws IOException {
    Frames.Body b = new Frames.Body();
    b.out.writeString(s);
    return b.finish();
  }

  /** Java's Version.isSupportResponseAttachment: protocol versions 2.0.2 up to 2.0.99. */
  static boolean supportsResponseAttachments(String v) {
    if (v == null || !v.startsWith("2.0.")) return false;
    try {
      int patch = Integer.parseInt(v.substring(4));
      return patch >= 2 && patch <= 99;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static Map<String, Object> responseAttachments() {
    Map<String, Object> map = new HashMap<>();
    map.put("dubbo", "2.0.2");
    map.put("server", "java-harness");
    return map;
  }

  static final class UnknownTarget extends Exception {
    UnknownTarget(String message) {
      super(message);
    }
  }

  private static Object invoke(String path, String method, String desc, Object[] args) throws UnknownTarget {
    String key = path + "." + method + "(" + desc + ")";
    switch (key) {
      case "org.apache.dubbo.demo.DemoService.sayHello(Ljava/lang/String;)":
        return "Hello " + args[0] + " from java";
      case "org.apache.dubbo.demo.DemoService.$echo(Ljava/lang/Object;)":
      case "com.foo.UserService.$echo(Ljava/lang/Object;)":
        return args[0];
      case "com.foo.UserService.greet(Lcom/foo/User;)": {
        User u = (User) args[0];
        List<String> tags = new ArrayList<>(u.tags == null ? List.of() : u.tags);
        tags.add("greeted");
        return new User(u.id + 1, "Hello " + u.name, tags);
      }
      case "com.foo.UserService.listUsers(I)": {
        int n = (Integer) args[0];
        List<User> users = new ArrayList<>();
        for (int i = 0; i < n; i++) users.add(new User(1000L + i, "user-" + i, new ArrayList<>(List.of("t" + i))));
        return users;
      }
      case "com.foo.UserService.names(Ljava/util/List;)": {
        List<String> names = new ArrayList<>();
        for (Object o : (List<?>) args[0]) names.add(((User) o).name);
        return names;
      }
      case "com.foo.UserService.fail(Ljava/lang/String;)":
        throw new IllegalArgumentException("bad user: " + args[0]);
      default:
        if (!path.equals("org.apache.dubbo.demo.DemoService") && !path.equals("com.foo.UserService")) {
          throw new UnknownTarget("Not found exported service: " + path + ":0.0.0 in java-harness");
        }
        throw new UnknownTarget("Failed to invoke remote proxy method " + method + " to " + path + ": no such method");
    }
  }
}
