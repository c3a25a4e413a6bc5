package dubbots.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.trace.ReadableSpan;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.TracingConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.config.nested.PropagationConfig;
import org.apache.dubbo.config.nested.SamplingConfig;

/**
 * A Java Dubbo 3.3 provider with Dubbo's own tracing on (Micrometer's OpenTelemetry bridge,
 * every call sampled, propagation W3C or B3 as args[0]) on port args[1], no registry. Its
 * service answers with the trace id and parent span id of the server span it runs in (Micrometer
 * names the span only when it stops, so the name is not seen from inside);
 * prints READY once serving, and runs until stdin closes.
 */
public final class TracedProvider {
    public static void main(String[] args) throws Exception {
        ApplicationConfig application = new ApplicationConfig("java-traced-provider");
        application.setQosEnable(false);
        TracingConfig tracing = new TracingConfig();
        tracing.setEnabled(true);
        tracing.setSampling(new SamplingConfig(1.0f));
        tracing.setPropagation(new PropagationConfig(args[0]));

        ServiceConfig<TraceEcho> service = new ServiceConfig<>();
        service.setInterface(TraceEcho.class);
        service.setRef(() -> {
            Span span = Span.current();
            if (!(span instanceof ReadableSpan)) return "no-span";
            ReadableSpan readable = (ReadableSpan) span;
            return span.getSpanContext().getTraceId() + " "
                    + readable.getParentSpanContext().getSpanId();
        });

        DubboBootstrap.getInstance()
                .application(application)
                .tracing(tracing)
                .registry(new RegistryConfig("N/A"))
                .protocol(new ProtocolConfig("dubbo", Integer.parseInt(args[1])))
                .service(service)
                .start();
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0) {
            // runs until the test closes stdin
        }
        DubboBootstrap.getInstance().stop();
        System.exit(0);
    }
}
