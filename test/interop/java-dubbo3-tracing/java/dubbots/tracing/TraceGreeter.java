package dubbots.tracing;

/** What our Node provider serves to the traced Java consumer. */
public interface TraceGreeter {
    String greet(String name);
}
