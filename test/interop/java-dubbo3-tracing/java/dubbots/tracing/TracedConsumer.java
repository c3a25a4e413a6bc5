package dubbots.tracing;

import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.TracingConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.config.nested.PropagationConfig;
import org.apache.dubbo.config.nested.SamplingConfig;
import org.apache.dubbo.rpc.Filter;
import org.apache.dubbo.rpc.model.ApplicationModel;

/**
 * A Java Dubbo 3.3 consumer with Dubbo's own tracing on (Micrometer's OpenTelemetry bridge, every
 * call sampled, propagation W3C or B3 as args[0]) that calls {@link TraceGreeter#greet} once on
 * dubbo://args[1] (host:port), no registry. {@link SentSpanProbe} prints the client span and the
 * trace attachments sent; then it prints {@code ANSWER <answer>} and exits.
 */
public final class TracedConsumer {
    public static void main(String[] args) throws Exception {
        ApplicationConfig application = new ApplicationConfig("java-traced-consumer");
        application.setQosEnable(false);
        TracingConfig tracing = new TracingConfig();
        tracing.setEnabled(true);
        tracing.setSampling(new SamplingConfig(1.0f));
        tracing.setPropagation(new PropagationConfig(args[0]));

        ApplicationModel.defaultModel()
                .getDefaultModule()
                .getExtensionLoader(Filter.class)
                .addExtension("sentspanprobe", SentSpanProbe.class);
        ReferenceConfig<TraceGreeter> reference = new ReferenceConfig<>();
        reference.setInterface(TraceGreeter.class);
        reference.setUrl("dubbo://" + args[1]);
        reference.setFilter("sentspanprobe");
        reference.setTimeout(10_000);
        reference.setRetries(0);

        DubboBootstrap bootstrap = DubboBootstrap.getInstance()
                .application(application)
                .tracing(tracing)
                .registry(new RegistryConfig("N/A"))
                .reference(reference)
                .start();
        String answer = reference.get().greet("java");
        System.out.println("ANSWER " + answer);
        System.out.flush();
        bootstrap.stop();
        System.exit(0);
    }
}
