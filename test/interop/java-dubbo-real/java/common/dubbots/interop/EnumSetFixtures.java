package dubbots.interop;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import com.foo.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;

/**
 * Prints, one "name<TAB>hex" line each, the bytes hessian-lite writes for Java EnumSets (its
 * EnumSetSerializer sends an EnumSetHandler object, not a list), for the decoder's tests.
 */
public final class EnumSetFixtures {
  private static final SerializerFactory FACTORY = new SerializerFactory();

  public static void main(String[] args) throws IOException {
    EnumSet<Color> redBlue = EnumSet.of(Color.RED, Color.BLUE);
    print("enumset.red-blue", redBlue);
    print("enumset.all", EnumSet.allOf(Color.class));
    print("list.same-enumset-twice", Arrays.asList(redBlue, redBlue));
  }

  private static void print(String name, Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(bytes);
    out.setSerializerFactory(FACTORY);
    out.writeObject(value);
    out.flush();
    StringBuilder hex = new StringBuilder();
    for (byte b : bytes.toByteArray()) hex.append(String.format("%02x", b));
    System.out.println(name + "\t" + hex);
  }
}
