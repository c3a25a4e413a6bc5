package dubbots.interop;

import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Conformance harness for dubbo-ts's Hessian 2 codec, run against Caucho Hessian 4.0.38 configured
 * like Dubbo's hessian-lite (modes: see HarnessModes).
 */
public final class HessianHarness implements HessianCodec {
  private final SerializerFactory factory = HessianLiteCompat.createFactory();

  public static void main(String[] args) throws Exception {
    HarnessModes.run(new HessianHarness(), args);
  }

  @Override
  public byte[] encode(Object[] values) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Hessian2Output h = new Hessian2Output(bytes);
    h.setSerializerFactory(factory);
    for (Object v : values) h.writeObject(v);
    h.flush();
    return bytes.toByteArray();
  }

  @Override
  public List<Object> decode(byte[] frame) throws IOException {
    Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(frame));
    in.setSerializerFactory(factory);
    List<Object> values = new ArrayList<>();
    while (!in.isEnd()) values.add(in.readObject());
    return values;
  }
}
