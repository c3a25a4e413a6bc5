package dubbots.tracing;

import io.opentelemetry.api.trace.Span;
import org.apache.dubbo.rpc.Filter;
import org.apache.dubbo.rpc.Invocation;
import org.apache.dubbo.rpc.Invoker;
import org.apache.dubbo.rpc.Result;
import org.apache.dubbo.rpc.RpcException;

/**
 * A consumer filter of the traced Java consumer: it runs inside Dubbo's client observation (a
 * cluster filter, outside every consumer filter), so the current span is Dubbo's client span.
 * Prints {@code CLIENT-SPAN <traceId> <spanId>} and, for each trace attachment Dubbo's propagator
 * wrote into the request, {@code SENT <key> <value>}.
 */
public final class SentSpanProbe implements Filter {
    private static final String[] TRACE_KEYS = {"traceparent", "tracestate", "b3"};

    @Override
    public Result invoke(Invoker<?> invoker, Invocation invocation) throws RpcException {
        Span span = Span.current();
        System.out.println("CLIENT-SPAN " + span.getSpanContext().getTraceId() + " "
                + span.getSpanContext().getSpanId());
        for (String key : TRACE_KEYS) {
            String value = invocation.getAttachment(key);
            if (value != null) System.out.println("SENT " + key + " " + value);
        }
        System.out.flush();
        return invoker.invoke(invocation);
    }
}
