package dubbots.mesh;

import com.foo.PickService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.common.utils.NetUtils;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.metadata.MetadataInfo;

/**
 * A Java Dubbo 3.3 member of an application-level mesh, on Dubbo's plain API, driven by the Node
 * tests. Register mode, migration step and metadata type come from Dubbo's own system properties
 * (dubbo.application.register-mode, dubbo.application.service-discovery.migration,
 * dubbo.application.metadata-type); the application name from -Dpeer.name.
 *
 * <pre>
 *   provider REGISTRY PORT
 *       exports PickService on PORT (whoAmI answers PORT), prints @@"READY", runs until killed.
 *   consumer REGISTRY PROVIDED_BY|-
 *       refers PickService (check=false), then reads commands from stdin, each answered with
 *       @@ lines and @@"END":
 *       until PORTS MAX_CALLS   calls whoAmI until every port of PORTS (comma-separated) answered
 *                               or MAX_CALLS calls were made (one every 100 ms); prints
 *                               {"seen":[ports], "error":"the last failure"}
 *   revision APP URL...
 *       prints {"revision": ...} of Java's MetadataInfo for APP holding these provider URLs.
 * </pre>
 */
public final class MeshPeer {
  public static void main(String[] args) throws Exception {
    if (args.length >= 3 && args[0].equals("provider")) {
      provide(args[1], Integer.parseInt(args[2]));
      line("\"READY\"");
      Thread.currentThread().join();
    } else if (args.length == 3 && args[0].equals("consumer")) {
      consume(args[1], args[2]);
    } else if (args.length >= 2 && args[0].equals("revision")) {
      MetadataInfo metadata = new MetadataInfo(args[1]);
      for (int i = 2; i < args.length; i++) metadata.addService(URL.valueOf(args[i]));
      line("{\"revision\":\"" + metadata.calAndGetRevision() + "\"}");
    } else {
      System.err.println("usage: MeshPeer provider REGISTRY PORT | consumer REGISTRY PROVIDED_BY|- | revision APP URL...");
      System.exit(2);
    }
    System.exit(0);
  }

  private static ApplicationConfig application() {
    ApplicationConfig app = new ApplicationConfig(System.getProperty("peer.name", "java-mesh"));
    app.setQosEnable(false);
    return app;
  }

  private static void provide(String registry, int port) {
    ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
    protocol.setHost(NetUtils.getLocalHost());
    ServiceConfig<PickService> service = new ServiceConfig<>();
    service.setInterface(PickService.class);
    service.setRef(() -> port);
    DubboBootstrap.getInstance()
        .application(application())
        .registry(new RegistryConfig(registry))
        .protocol(protocol)
        .service(service)
        .start();
  }

  private static void consume(String registry, String providedBy) throws Exception {
    ReferenceConfig<PickService> reference = new ReferenceConfig<>();
    reference.setInterface(PickService.class);
    reference.setCheck(false);
    reference.setTimeout(3000);
    if (!providedBy.equals("-")) reference.setProvidedBy(providedBy);
    DubboBootstrap.getInstance()
        .application(application())
        .registry(new RegistryConfig(registry))
        .reference(reference)
        .start();
    PickService picks = reference.get();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String command = in.readLine(); command != null; command = in.readLine()) {
      String[] words = command.trim().split(" ");
      if (words[0].equals("until")) until(picks, words[1].split(","), Integer.parseInt(words[2]));
      else line("{\"error\":\"unknown command " + words[0] + "\"}");
      line("\"END\"");
    }
  }

  private static void until(PickService picks, String[] wanted, int maxCalls) throws Exception {
    TreeSet<String> seen = new TreeSet<>();
    String error = null;
    List<String> missing = new ArrayList<>(List.of(wanted));
    for (int i = 0; i < maxCalls && !missing.isEmpty(); i++) {
      try {
        String port = String.valueOf(picks.whoAmI());
        seen.add(port);
        missing.remove(port);
      } catch (RuntimeException e) {
        error = e.getClass().getName() + ": " + e.getMessage();
        Thread.sleep(100);
      }
    }
    StringBuilder out = new StringBuilder("{\"seen\":[");
    out.append(String.join(",", seen.stream().map(p -> "\"" + p + "\"").toList()));
    out.append("],\"error\":").append(error == null ? "null" : quote(error)).append('}');
    line(out.toString());
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "").replace("\t", " ") + "\"";
  }

  private static synchronized void line(String json) {
    System.out.println("@@" + json);
    System.out.flush();
  }
}
