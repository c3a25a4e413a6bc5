package dubbots.interop;

import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.SerializerFactory;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Conformance harness for dubbo-ts's Hessian 2 codec, run against Caucho Hessian 4.0.38 configured
 * like Dubbo's hessian-lite.
 *
 * <pre>
 *   fixtures   print "name TAB hex" for every fixture value (see Fixtures)
 *   decode     read hex frames from stdin, one per line; print one description line per frame:
 *              every value of the frame described by Describe, joined by " | ",
 *              or "ERROR class: message" when Java cannot read it
 * </pre>
 */
public final class HessianHarness {
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    SerializerFactory factory = HessianLiteCompat.createFactory();
    String mode = args.length == 0 ? "" : args[0];
    if (mode.equals("fixtures")) {
      Fixtures.writeAll(factory, out);
    } else if (mode.equals("decode")) {
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.println(decodeFrame(factory, line.trim()));
        out.flush();
      }
    } else {
      System.err.println("usage: HessianHarness fixtures|decode");
      System.exit(2);
    }
    out.flush();
  }

  private static String decodeFrame(SerializerFactory factory, String hex) {
    try {
      Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(parseHex(hex)));
      in.setSerializerFactory(factory);
      List<Object> values = new ArrayList<>();
      while (!in.isEnd()) values.add(in.readObject());
      if (values.isEmpty()) return "ERROR empty frame";
      return Describe.frame(values);
    } catch (Throwable e) {
      return ("ERROR " + e.getClass().getName() + ": " + e.getMessage()).replace('\n', ' ');
    }
  }

  private static byte[] parseHex(String hex) {
    if (hex.length() % 2 != 0) throw new IllegalArgumentException("odd-length hex frame");
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
