package dubbots.interop;

import java.io.IOException;
import java.util.List;

/** One Java Hessian 2 implementation, as the harness modes use it: Caucho's or Dubbo's hessian-lite. */
public interface HessianCodec {
  /** The values written by one output, in order (sharing class definitions and references). */
  byte[] encode(Object[] values) throws IOException;

  /** Every value of one frame, read by one input until the frame ends. */
  List<Object> decode(byte[] frame) throws IOException;
}
