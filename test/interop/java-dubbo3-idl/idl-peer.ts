// Runs IdlPeer (java/ beside this file) on real Java Dubbo 3.3.6: one JVM per test file, both a
// Greeter provider and a Greeter consumer in IDL mode, driven by java-peer.ts's command protocol.
// Its protobuf classes come from test/triple/proto/ through protoc from Maven Central; its Greeter
// is either the plain Java interface of java/ (on greeter.proto) or the stubs Dubbo's own protoc
// plugin (dubbo-compiler) generates from greeter_java_package.proto, the same service under
// another proto package with java_package dubbo.tri.test (java-dubbo3-stubs/java/ has the
// provider on them); either way the Java classes are dubbo.tri.test's.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { javaDubboClasspath, javaDubboProtocPlugin, javaProtoc } from "../../../scripts/java-dubbo-deps.mjs";
import { compileJavaHarness, type JavaHarnessSources } from "../java-build.js";
import { commandPeer, type JavaConsumer, type PeerLine, spawnPeer } from "../java-dubbo-real/java-peer.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const JAVA = join(HERE, "java");
const PEER_JAVA = join(JAVA, "dubbots", "interop");
const PROTOS = join(HERE, "..", "..", "triple", "proto");
/** The interface style's proto; the stubs are generated from its copy with a java_package. */
const GREETER_PROTO = join(PROTOS, "greeter.proto");
const JAVA_PACKAGE_PROTO = join(PROTOS, "greeter_java_package.proto");
const JSON_OUT = join(HERE, "..", "java-dubbo-real", "java", "common", "dubbots", "interop", "JsonOut.java");
const START_TIMEOUT_MS = 90_000;

/**
 * How the Java side declares Greeter: `interface`, the hand-written interface with protobuf messages
 * (protoc --java_out only); `stubs`, what Dubbo's protoc plugin generates (`--dubbo_out`).
 */
export type JavaGreeterStyle = "interface" | "stubs";

function harness(style: JavaGreeterStyle, classpath: readonly string[]): JavaHarnessSources {
  if (style === "interface") {
    return {
      sources: [JAVA, JSON_OUT],
      classpath,
      protos: { protoc: javaProtoc(), files: [GREETER_PROTO] },
      cacheName: "java-dubbo3-idl",
      suite: "Java Triple IDL interop tests",
    };
  }
  return {
    sources: [
      join(PEER_JAVA, "IdlPeer.java"),
      join(PEER_JAVA, "GreeterReplies.java"),
      join(HERE, "..", "java-dubbo3-stubs", "java"),
      JSON_OUT,
    ],
    classpath,
    protos: {
      protoc: javaProtoc(),
      files: [JAVA_PACKAGE_PROTO],
      plugins: { dubbo: javaDubboProtocPlugin() },
    },
    cacheName: "java-dubbo3-stubs",
    suite: "Java Triple stub interop tests",
  };
}

/** Interface-level discovery, as the other Java 3.3 interop tests run. */
const INTERFACE_DISCOVERY = [
  "-Ddubbo.application.register-mode=interface",
  "-Ddubbo.application.service-discovery.migration=FORCE_INTERFACE",
];

export interface JavaIdlPeer {
  /** The address Java uses for this machine (it never dials loopback): our servers listen here. */
  readonly host: string;
  /** Exports Java's Greeter over tri on `host:port`, registered in `registry` (or `-` for none); returns its URL. */
  provide(registry: string, port: number): Promise<string>;
  /** Runs the Java consumer's cases against `target` (`tri://host:port` or a registry address). */
  consume(target: string): Promise<Map<string, PeerLine>>;
  stop(): Promise<void>;
}

function failure(lines: readonly PeerLine[]): string | undefined {
  const error = lines.find((line) => "error" in line && !("case" in line));
  return error === undefined ? undefined : String(error.error);
}

export async function startJavaIdlPeer(style: JavaGreeterStyle): Promise<JavaIdlPeer> {
  const jars = javaDubboClasspath("dubbo-3.3");
  const classes = compileJavaHarness(harness(style, jars));
  const peer = spawnPeer("3.3", `java-idl-${style}`, [], {
    mainClass: "dubbots.interop.IdlPeer",
    classpath: [classes, ...jars].join(":"),
    properties: INTERFACE_DISCOVERY,
  });
  let host: string;
  try {
    host = JSON.parse(await peer.next(START_TIMEOUT_MS)) as string;
  } catch (error) {
    await peer.stop();
    throw error;
  }
  const commands: JavaConsumer = commandPeer(peer);
  return {
    host,
    async provide(registry, port) {
      const lines = await commands.command(`provide ${registry} ${port}`);
      const exported = lines.find((line) => "exported" in line)?.exported;
      if (typeof exported !== "string") {
        throw new Error(`the Java IDL provider did not export: ${failure(lines)}\n${peer.log()}`);
      }
      return exported;
    },
    async consume(target) {
      const lines = await commands.command(`consume ${target}`);
      const broken = failure(lines);
      if (broken !== undefined) throw new Error(`the Java IDL consumer failed: ${broken}\n${peer.log()}`);
      return new Map(lines.map((line) => [String(line.case), line]));
    },
    stop: () => peer.stop(),
  };
}
