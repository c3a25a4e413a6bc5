// Runs our Java programs (java/ beside this file) on real Java Dubbo fetched from Maven Central
// (scripts/java-dubbo-deps.mjs): one JVM per role, each serving many cases. Protocol lines start
// with "@@" (the rest of stdout is Dubbo's own logging); see java/common/dubbots/interop/JavaDubboPeer.java.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { javaDubboClasspath } from "../../../scripts/java-dubbo-deps.mjs";
import { HESSIAN_JVM_FLAGS, type JavaHessianPeer } from "../hessian/java-harness.js";
import { compileJavaHarness, missingJavaTool } from "../java-build.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const HESSIAN_JAVA = join(HERE, "..", "hessian", "java");
const MAIN_CLASS = "dubbots.interop.JavaDubboPeer";
const SUITE = "real Java Dubbo interop tests";
const START_TIMEOUT_MS = 60_000;
const COMMAND_TIMEOUT_MS = 60_000;

export type DubboVersion = "2.7" | "3.3";

/** The Java Dubbo releases the tests run (the Maven projects under maven/ pin them). */
export const DUBBO_RELEASE: Readonly<Record<DubboVersion, string>> = { "2.7": "2.7.23", "3.3": "3.3.6" };

/**
 * Dubbo 3.3 runs in interface discovery (application-level discovery is its own work): the provider
 * registers per interface only, the consumer subscribes per interface only.
 */
const VERSION_PROPERTIES: Readonly<Record<DubboVersion, readonly string[]>> = {
  "2.7": [],
  "3.3": [
    "-Ddubbo.application.register-mode=interface",
    "-Ddubbo.application.service-discovery.migration=FORCE_INTERFACE",
  ],
};

/** Compiles (once per source change) against that Dubbo's jars; returns the whole classpath. */
export function javaPeerClasspath(version: DubboVersion): string {
  const jars = javaDubboClasspath(`dubbo-${version}`);
  const classes = compileJavaHarness({
    sources: [
      join(HERE, "java", "common"),
      join(HERE, "java", `dubbo-${version}`),
      join(HESSIAN_JAVA, "com", "foo"),
      ...["Fixtures", "Describe", "HessianCodec", "HarnessModes"].map((name) =>
        join(HESSIAN_JAVA, "dubbots", "interop", `${name}.java`),
      ),
    ],
    classpath: jars,
    cacheName: `java-dubbo-${version}`,
    suite: SUITE,
  });
  return [classes, ...jars].join(":");
}

/** Dubbo's own hessian-lite (as that Dubbo release ships it) for the Hessian conformance checks. */
export function hessianLitePeer(version: DubboVersion): JavaHessianPeer {
  return {
    name: `hessian-lite of Dubbo ${DUBBO_RELEASE[version]}`,
    classpath: () => javaPeerClasspath(version),
    mainClass: "dubbots.interop.HessianLiteHarness",
  };
}

/** A protocol line the Java peer printed (without "@@"), parsed. */
export type PeerLine = Record<string, unknown>;

export interface PeerProcess {
  readonly proc: ChildProcessWithoutNullStreams;
  /** Protocol lines not consumed yet. */
  next(timeoutMs: number): Promise<string>;
  /** Everything else the JVM printed, for error messages. */
  log(): string;
  stop(): Promise<void>;
}

/** Another Java program on the same line protocol: its class, classpath and system properties. */
export interface PeerProgram {
  readonly mainClass: string;
  readonly classpath: string;
  /** `-D` flags, instead of the interface-discovery ones of {@link VERSION_PROPERTIES}. */
  readonly properties: readonly string[];
}

export function spawnPeer(
  version: DubboVersion,
  name: string,
  args: readonly string[],
  program?: PeerProgram,
): PeerProcess {
  const proc = spawn(
    "java",
    [
      ...HESSIAN_JVM_FLAGS,
      ...(program?.properties ?? VERSION_PROPERTIES[version]),
      `-Dpeer.name=${name}`,
      "-cp",
      program?.classpath ?? javaPeerClasspath(version),
      program?.mainClass ?? MAIN_CLASS,
      ...args,
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const queued: string[] = [];
  const waiting: Array<(line: string | Error) => void> = [];
  const other: string[] = [];
  let exited: Error | undefined;
  const deliver = (item: string | Error): void => {
    const waiter = waiting.shift();
    if (waiter !== undefined) waiter(item);
    else if (typeof item === "string") queued.push(item);
  };
  createInterface({ input: proc.stdout }).on("line", (line) => {
    if (line.startsWith("@@")) deliver(line.slice(2));
    else other.push(line);
  });
  createInterface({ input: proc.stderr }).on("line", (line) => other.push(line));
  const closed = new Promise<void>((resolve) => proc.once("close", () => resolve()));
  proc.once("error", (error: NodeJS.ErrnoException) => {
    exited = error.code === "ENOENT" ? missingJavaTool(SUITE, "java (a JDK, 17 or newer)") : error;
    for (const w of waiting.splice(0)) w(exited);
  });
  proc.once("exit", (code, signal) => {
    exited ??= new Error(`Java Dubbo ${DUBBO_RELEASE[version]} ${name} exited (${code ?? signal})`);
    for (const w of waiting.splice(0)) w(exited);
  });
  const log = (): string => other.slice(-40).join("\n");
  return {
    proc,
    log,
    next(timeoutMs) {
      const line = queued.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (exited !== undefined) return Promise.reject(new Error(`${exited.message}:\n${log()}`));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(settle), 1);
          reject(new Error(`Java Dubbo ${name} answered nothing within ${timeoutMs} ms:\n${log()}`));
        }, timeoutMs);
        const settle = (item: string | Error): void => {
          clearTimeout(timer);
          if (typeof item === "string") resolve(item);
          else reject(new Error(`${item.message}:\n${log()}`));
        };
        waiting.push(settle);
      });
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      // Killed by its pid: Dubbo's shutdown hook would wait 10 s for registry notifications.
      proc.kill("SIGKILL");
      await closed;
    },
  };
}

let localHost: Promise<string> | undefined;

/**
 * The address Java Dubbo uses for this machine: it never connects to a loopback address (it swaps
 * 127.x for this one), so our providers listen here too. Asked of Java 2.7 once per test process.
 */
export function javaLocalHost(): Promise<string> {
  localHost ??= (async () => {
    const peer = spawnPeer("2.7", "java-host", ["host"]);
    try {
      return JSON.parse(await peer.next(START_TIMEOUT_MS)) as string;
    } finally {
      await peer.stop();
    }
  })();
  return localHost;
}

/** A port free on `host` now, for a Java provider (which cannot be asked to bind port 0). */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PickExport {
  readonly port: number;
  readonly weight: number;
  readonly warmupMs: number;
}

export interface JavaProvider {
  stop(): Promise<void>;
}

/**
 * A Java provider of InteropService on `port` (timeout=3000; sleepCounted retries=0, timeout=300)
 * and of PickService once per pick export (loadbalance=roundrobin, token=true, its weight and warmup); resolves
 * once everything is exported and registered.
 */
export async function startJavaProvider(
  version: DubboVersion,
  registry: string,
  port: number,
  picks: readonly PickExport[] = [],
): Promise<JavaProvider> {
  const peer = spawnPeer(version, "java-provider", [
    "provider",
    registry,
    String(port),
    ...picks.map((p) => `${p.port}:${p.weight}:${p.warmupMs}`),
  ]);
  try {
    const line = await peer.next(START_TIMEOUT_MS);
    if (line !== "READY") throw new Error(`Java provider said ${line} instead of READY:\n${peer.log()}`);
  } catch (error) {
    await peer.stop();
    throw error;
  }
  return { stop: () => peer.stop() };
}

export interface JavaConsumer {
  /** Runs one command (see JavaDubboPeer); resolves with its lines. Commands run one at a time. */
  command(line: string): Promise<PeerLine[]>;
  stop(): Promise<void>;
}

/** A Java consumer process that runs commands until stopped. */
export function startJavaConsumer(version: DubboVersion): JavaConsumer {
  return commandPeer(spawnPeer(version, "java-consumer", ["consumer"]));
}

/** Sends commands to a peer that answers each on stdin with lines up to END, one command at a time. */
export function commandPeer(peer: PeerProcess): JavaConsumer {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    command(line) {
      const run = async (): Promise<PeerLine[]> => {
        peer.proc.stdin.write(`${line}\n`);
        const lines: PeerLine[] = [];
        for (;;) {
          const next = await peer.next(COMMAND_TIMEOUT_MS);
          if (next === "END") return lines;
          lines.push(JSON.parse(next) as PeerLine);
        }
      };
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    },
    stop: () => peer.stop(),
  };
}
