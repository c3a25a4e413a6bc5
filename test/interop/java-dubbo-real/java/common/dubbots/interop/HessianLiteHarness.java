package dubbots.interop;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Hessian conformance harness (modes: see HarnessModes) on the hessian-lite that Java Dubbo
 * really runs: bundled in dubbo-2.7.23.jar, or com.alibaba:hessian-lite beside Dubbo 3.3.
 */
public final class HessianLiteHarness implements HessianCodec {
  private final SerializerFactory factory = new SerializerFactory();

  public static void main(String[] args) throws Exception {
    HarnessModes.run(new HessianLiteHarness(), args);
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
