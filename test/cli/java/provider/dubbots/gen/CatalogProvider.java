package dubbots.gen;

import com.foo.api.CatalogService;
import org.apache.dubbo.common.utils.NetUtils;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * A Java Dubbo 3 provider of CatalogService for the `dubbo-ts gen`, `invoke`, `ls` and `qos` tests.
 * Usage: CatalogProvider REGISTRY PORT QOS_PORT. Prints @@"READY" once exported, runs until stdin closes.
 */
public final class CatalogProvider {
  public static void main(String[] args) throws Exception {
    ApplicationConfig application = new ApplicationConfig("gen-catalog");
    application.setQosEnable(true);
    application.setQosPort(Integer.parseInt(args[2]));
    ProtocolConfig protocol = new ProtocolConfig("dubbo", Integer.parseInt(args[1]));
    protocol.setHost(NetUtils.getLocalHost());
    ServiceConfig<CatalogService> service = new ServiceConfig<>();
    service.setInterface(CatalogService.class);
    service.setRef(new JavaCatalogService());
    service.setVersion("1.0.0");
    DubboBootstrap.getInstance()
        .application(application)
        .registry(new RegistryConfig(args[0]))
        .protocol(protocol)
        .service(service)
        .start();
    System.out.println("@@\"READY\"");
    while (System.in.read() >= 0) {
      // the test closes stdin (or kills us) to stop
    }
    System.exit(0);
  }
}
