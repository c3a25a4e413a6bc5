package dubbots.triple;

import com.foo.Person;
import com.foo.TripleGreeter;
import java.util.concurrent.Callable;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.service.EchoService;

/**
 * A Java Dubbo 3.3 Triple peer on Dubbo's plain API, driven by the Node tests (wrapper mode, Hessian
 * 2). The application name comes from -Dpeer.name.
 *
 * <pre>
 *   provider REGISTRY|- HOST PORT
 *       exports TripleGreeter over tri on HOST:PORT (registered unless REGISTRY is -), prints
 *       @@"READY", runs until killed.
 *   consumer REGISTRY|tri://HOST:PORT
 *       refers TripleGreeter (through the registry, or directly), runs every case once and prints
 *       one @@{"case":..., "value":...} or @@{"case":..., "error":..., "type":...} line per case,
 *       then @@"END".
 * </pre>
 */
public final class TriplePeer {
  public static void main(String[] args) throws Exception {
    if (args.length == 4 && args[0].equals("provider")) {
      provide(args[1], args[2], Integer.parseInt(args[3]));
      line("\"READY\"");
      Thread.currentThread().join();
    } else if (args.length == 2 && args[0].equals("consumer")) {
      consume(args[1]);
      line("\"END\"");
    } else {
      System.err.println("usage: TriplePeer provider REGISTRY|- HOST PORT | consumer REGISTRY|tri://HOST:PORT");
      System.exit(2);
    }
    System.exit(0);
  }

  private static ApplicationConfig application() {
    ApplicationConfig app = new ApplicationConfig(System.getProperty("peer.name", "java-triple"));
    app.setQosEnable(false);
    return app;
  }

  private static RegistryConfig registry(String address) {
    if (address.equals("-")) return new RegistryConfig(RegistryConfig.NO_AVAILABLE);
    return new RegistryConfig(address);
  }

  private static final class Greeter implements TripleGreeter {
    @Override
    public String greet(String name) {
      return "Hello " + name + " from Java";
    }

    @Override
    public Person older(Person person) {
      return new Person(person.getName(), person.getAge() + 1);
    }

    @Override
    public long add(int a, long b) {
      return a + b;
    }

    @Override
    public String fail(String why) {
      throw new IllegalStateException("refused: " + why);
    }

    @Override
    public String context(String key) {
      RpcContext.getServerResponseContext().setAttachment("answered-by", "java-provider");
      return String.valueOf(RpcContext.getServerAttachment().getAttachment(key));
    }
  }

  private static void provide(String registry, String host, int port) {
    ProtocolConfig protocol = new ProtocolConfig("tri", port);
    protocol.setHost(host);
    ServiceConfig<TripleGreeter> service = new ServiceConfig<>();
    service.setInterface(TripleGreeter.class);
    service.setRef(new Greeter());
    DubboBootstrap.getInstance()
        .application(application())
        .registry(registry(registry))
        .protocol(protocol)
        .service(service)
        .start();
  }

  private static void consume(String target) {
    ReferenceConfig<TripleGreeter> reference = new ReferenceConfig<>();
    reference.setInterface(TripleGreeter.class);
    reference.setTimeout(5000);
    reference.setRetries(0);
    reference.setProtocol("tri");
    boolean direct = target.startsWith("tri://");
    if (direct) reference.setUrl(target);
    else reference.setCheck(false);
    DubboBootstrap.getInstance()
        .application(application())
        .registry(direct ? registry("-") : registry(target))
        .reference(reference)
        .start();
    TripleGreeter greeter = reference.get();
    if (!direct) waitForProvider(greeter);
    run("greet", () -> quote(greeter.greet("java")));
    run("older", () -> {
      Person p = greeter.older(new Person("ann", 41));
      return quote(p.getName() + "/" + p.getAge());
    });
    run("add", () -> String.valueOf(greeter.add(2, 40L + (1L << 40))));
    run("fail", () -> quote(greeter.fail("no")));
    run("context", () -> {
      RpcContext.getClientAttachment().setAttachment("trace-id", "t-7");
      String value = greeter.context("trace-id");
      return quote(value + " answered-by=" + RpcContext.getClientResponseContext().getAttachment("answered-by"));
    });
    run("echo", () -> quote(String.valueOf(((EchoService) greeter).$echo("ping"))));
  }

  /** Through a registry the provider may show up a moment later: retry the first call for a while. */
  private static void waitForProvider(TripleGreeter greeter) {
    for (int i = 0; i < 100; i++) {
      try {
        greeter.greet("probe");
        return;
      } catch (RuntimeException e) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  private static void run(String name, Callable<String> call) {
    try {
      line("{\"case\":\"" + name + "\",\"value\":" + call.call() + "}");
    } catch (Throwable e) {
      line("{\"case\":\"" + name + "\",\"type\":" + quote(e.getClass().getName()) + ",\"error\":" + quote(String.valueOf(e.getMessage())) + "}");
    }
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "").replace("\t", " ") + "\"";
  }

  private static synchronized void line(String json) {
    System.out.println("@@" + json);
    System.out.flush();
  }
}
