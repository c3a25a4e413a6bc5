package dubbots.interop;

import com.foo.InteropService;
import com.foo.PickService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.common.extension.ExtensionLoader;
import org.apache.dubbo.common.utils.NetUtils;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.MethodConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.registry.Registry;
import org.apache.dubbo.registry.RegistryFactory;
import org.apache.dubbo.rpc.service.GenericService;

/**
 * A Java Dubbo peer on Dubbo's plain API (no Spring), one JVM per role, driven by the Node tests.
 *
 * <pre>
 *   host
 *       prints @@ and the address this machine's Dubbo uses for itself. Java Dubbo never connects
 *       to or binds a loopback address (NetUtils.filterLocalHost replaces 127.x by this one), so
 *       every peer of the tests listens there.
 *   provider REGISTRY PORT [PICK_PORT:WEIGHT:WARMUP ...]
 *       exports InteropService on PORT (timeout=3000; sleepCounted: retries=0, timeout=300) and
 *       PickService once per PICK_PORT with that weight and warmup (and loadbalance=roundrobin and
 *       a random token, which its consumers take from it); prints @@READY; runs until
 *       stdin closes. REGISTRY is a zookeeper:// address or N/A.
 *   consumer
 *       reads commands from stdin, answers each with @@ lines and @@END:
 *       cases TARGET             every interop case against TARGET (zookeeper://... or dubbo://...)
 *       attachments TARGET       only the attachments case
 *       registered TARGET        only the cases of the provider's registered timeout and retries
 *       picks REGISTRY N         N calls of PickService.whoAmI: the ports that answered
 *       register REGISTRY URL    writes URL (override://, condition://) through Dubbo's Registry API
 *       unregister REGISTRY URL  removes it again
 * </pre>
 */
public final class JavaDubboPeer {
  private static final ApplicationConfig APPLICATION = application();
  private static final Map<String, Object> REFERENCES = new HashMap<>();

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("host")) {
      JsonOut.line(JsonOut.quote(NetUtils.getLocalHost()));
    } else if (args.length >= 3 && args[0].equals("provider")) {
      provide(args);
      JsonOut.line("READY");
      waitForStdinToClose();
    } else if (args.length == 1 && args[0].equals("consumer")) {
      serveCommands();
    } else {
      System.err.println("usage: JavaDubboPeer host | provider REGISTRY PORT [PICK_PORT:WEIGHT:WARMUP ...] | consumer");
      System.exit(2);
    }
    System.exit(0);
  }

  private static ApplicationConfig application() {
    ApplicationConfig app = new ApplicationConfig(System.getProperty("peer.name", "java-peer"));
    app.setQosEnable(false);
    return app;
  }

  private static ProtocolConfig protocol(int port) {
    ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
    protocol.setId("dubbo-" + port);
    protocol.setHost(NetUtils.getLocalHost());
    return protocol;
  }

  private static void provide(String[] args) {
    RegistryConfig registry = new RegistryConfig(args[1]);
    ServiceConfig<InteropService> interop = new ServiceConfig<>();
    interop.setApplication(APPLICATION);
    interop.setRegistry(registry);
    interop.setProtocol(protocol(Integer.parseInt(args[2])));
    interop.setInterface(InteropService.class);
    interop.setRef(new JavaInteropService());
    interop.setTimeout(3000);
    MethodConfig counted = new MethodConfig();
    counted.setName("sleepCounted");
    counted.setRetries(0);
    counted.setTimeout(300);
    interop.setMethods(Collections.singletonList(counted));
    interop.export();
    for (int i = 3; i < args.length; i++) {
      String[] pick = args[i].split(":");
      int port = Integer.parseInt(pick[0]);
      ServiceConfig<PickService> service = new ServiceConfig<>();
      service.setApplication(APPLICATION);
      service.setRegistry(registry);
      service.setProtocol(protocol(port));
      service.setInterface(PickService.class);
      service.setRef(() -> port);
      service.setLoadbalance("roundrobin");
      service.setToken(true);
      service.setWeight(Integer.parseInt(pick[1]));
      service.setWarmup(Integer.parseInt(pick[2]));
      service.export();
    }
  }

  private static void waitForStdinToClose() throws Exception {
    while (System.in.read() >= 0) {
      // the test closes stdin to stop us
    }
  }

  private static void serveCommands() throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.trim().split(" ");
      try {
        switch (words[0]) {
          case "cases" -> cases(words[1]).runAll();
          case "attachments" -> cases(words[1]).attachments();
          case "registered" -> cases(words[1]).registered();
          case "picks" -> picks(words[1], Integer.parseInt(words[2]));
          case "register" -> registry(words[1]).register(URL.valueOf(words[2]));
          case "unregister" -> registry(words[1]).unregister(URL.valueOf(words[2]));
          default -> JsonOut.line(JsonOut.object("error", "unknown command " + words[0]));
        }
      } catch (Throwable e) {
        JsonOut.line(JsonOut.object("error", e.getClass().getName() + ": " + e.getMessage()));
      }
      JsonOut.line("END");
    }
  }

  private static ConsumerCases cases(String target) {
    return new ConsumerCases(interop(target), generic(target), target.startsWith("zookeeper:"));
  }

  private static Registry registry(String address) {
    RegistryFactory factory = ExtensionLoader.getExtensionLoader(RegistryFactory.class).getAdaptiveExtension();
    return factory.getRegistry(URL.valueOf(address));
  }

  private static void picks(String registry, int calls) {
    PickService picks = reference(PickService.class, registry, "picks", ref -> {});
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < calls; i++) ports.add(picks.whoAmI());
    JsonOut.line(JsonOut.object("picks", ports));
  }

  private static InteropService interop(String target) {
    return reference(InteropService.class, target, "typed", ref -> {});
  }

  private static GenericService generic(String target) {
    return reference(GenericService.class, target, "generic", ref -> {
      ref.setInterface(InteropService.class.getName());
      ref.setGeneric("true");
    });
  }

  @SuppressWarnings("unchecked")
  private static synchronized <T> T reference(
      Class<T> type, String target, String kind, java.util.function.Consumer<ReferenceConfig<T>> setup) {
    return (T)
        REFERENCES.computeIfAbsent(
            kind + " " + target,
            key -> {
              ReferenceConfig<T> ref = new ReferenceConfig<>();
              ref.setApplication(APPLICATION);
              ref.setInterface(type);
              if (target.startsWith("zookeeper:")) ref.setRegistry(new RegistryConfig(target));
              else ref.setUrl(target);
              setup.accept(ref);
              return ref.get();
            });
  }
}
