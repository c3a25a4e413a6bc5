package dubbots.tracing;

/** What the traced provider serves: where the call landed in the trace. */
public interface TraceEcho {
    /** "traceId parentSpanId" of the provider's current span. */
    String whereAmI();
}
