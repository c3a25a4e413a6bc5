package dubbots.javadubbo;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Entry point. "client HOST PORT": send the request cases to a provider and print the responses.
 * "server": serve Dubbo frames on a printed loopback port until stdin closes.
 */
public final class JavaDubboHarness {
  private JavaDubboHarness() {}

  public static void main(String[] args) throws Exception {
    PrintStream print = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    exitWhenStdinCloses();
    if (args.length == 3 && args[0].equals("client")) {
      ClientMode.run(args[1], Integer.parseInt(args[2]), 10_000, print);
      System.exit(0);
    } else if (args.length == 1 && args[0].equals("server")) {
      ServerMode.run(print);
    } else {
      System.err.println("usage: JavaDubboHarness client HOST PORT | server");
      System.exit(2);
    }
  }

  /** The Node test owns this process: when its pipe closes (the test ended or died), stop. */
  private static void exitWhenStdinCloses() {
    Thread t =
        new Thread(
            () -> {
              InputStream in = System.in;
              byte[] buf = new byte[64];
              try {
                while (in.read(buf) >= 0) {
                  // keep reading until EOF
                }
              } catch (IOException e) {
                // treat as closed
              }
              System.exit(0);
            },
            "stdin-watch");
    t.setDaemon(true);
    t.start();
  }
}
