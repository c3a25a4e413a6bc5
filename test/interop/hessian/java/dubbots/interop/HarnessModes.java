package dubbots.interop;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The conformance harness's modes, whatever Java Hessian implementation runs them.
 *
 * <pre>
 *   fixtures   print "name TAB hex" for every fixture value (see Fixtures)
 *   decode     read hex frames from stdin, one per line; print one description line per frame:
 *              every value of the frame described by Describe, joined by " | ",
 *              or "ERROR class: message" when Java cannot read it
 * </pre>
 */
public final class HarnessModes {
  private HarnessModes() {}

  public static void run(HessianCodec codec, String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    String mode = args.length == 0 ? "" : args[0];
    if (mode.equals("fixtures")) {
      Fixtures.writeAll(codec, out);
    } else if (mode.equals("decode")) {
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.println(decodeFrame(codec, line.trim()));
        out.flush();
      }
    } else {
      System.err.println("usage: <harness> fixtures|decode");
      System.exit(2);
    }
    out.flush();
  }

  private static String decodeFrame(HessianCodec codec, String hex) {
    try {
      List<Object> values = codec.decode(parseHex(hex));
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
