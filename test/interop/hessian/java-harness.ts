// Compiles and runs the Java conformance harness (java/ beside this file) against Debian's Caucho
// Hessian jar. Compiled classes are cached under .tmp/ keyed by a hash of the sources, so only the
// first run after a change pays for javac.
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileJavaHarness, HESSIAN_JAR, missingJavaTool } from "../java-build.js";

export { HESSIAN_JAR } from "../java-build.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const MAIN_CLASS = "dubbots.interop.HessianHarness";
const SUITE = "Java Hessian conformance tests";

/** Caucho and hessian-lite reflect into JDK classes (Throwable, BigInteger, collections); Java 17 opens them. */
export const HESSIAN_JVM_FLAGS: readonly string[] = [
  "-XX:TieredStopAtLevel=1",
  "-Xss4m",
  "--add-opens=java.base/java.lang=ALL-UNNAMED",
  "--add-opens=java.base/java.util=ALL-UNNAMED",
  "--add-opens=java.base/java.math=ALL-UNNAMED",
  "--add-opens=java.base/java.time=ALL-UNNAMED",
];

function missingToolError(what: string): Error {
  return missingJavaTool(SUITE, what);
}

/** Returns the class directory, compiling the harness only when its sources (or the jar) changed. */
export function compileHarness(): string {
  return compileJavaHarness({ sources: [join(HERE, "java")], cacheName: "hessian-harness", suite: SUITE });
}

/** A Java Hessian implementation the harness modes run on: its classpath and main class. */
export interface JavaHessianPeer {
  /** For messages: "Caucho Hessian", "hessian-lite of Dubbo 2.7.23". */
  readonly name: string;
  /** The classpath (compiled harness and jars); compiles on first use. */
  classpath(): string;
  readonly mainClass: string;
}

/** Debian's Caucho Hessian, configured like Dubbo's hessian-lite (HessianLiteCompat). */
export const CAUCHO_HESSIAN: JavaHessianPeer = {
  name: "Caucho Hessian",
  classpath: () => `${compileHarness()}:${HESSIAN_JAR}`,
  mainClass: MAIN_CLASS,
};

export interface HarnessRun {
  /** Runs the harness once; resolves with its stdout lines. Rejects on exit code, stderr noise or timeout. */
  run(mode: "fixtures" | "decode", stdinLines?: readonly string[]): Promise<string[]>;
  /** Kills a run still in flight (call from `after`). */
  close(): void;
}

export function createHarnessRun(peer: JavaHessianPeer = CAUCHO_HESSIAN, timeoutMs = 60_000): HarnessRun {
  let child: ChildProcess | undefined;
  return {
    run(mode, stdinLines = []) {
      const classpath = peer.classpath();
      return new Promise((resolve, reject) => {
        const proc = spawn("java", [...HESSIAN_JVM_FLAGS, "-cp", classpath, peer.mainClass, mode], {
          stdio: ["pipe", "pipe", "pipe"],
        });
        child = proc;
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        const timer = setTimeout(() => {
          proc.kill("SIGKILL");
          reject(new Error(`${peer.name} harness (${mode}) did not finish within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        proc.stdout.on("data", (chunk: Buffer) => out.push(chunk));
        proc.stderr.on("data", (chunk: Buffer) => err.push(chunk));
        proc.on("error", (error: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          reject(error.code === "ENOENT" ? missingToolError("java (a JDK, 17 or newer)") : error);
        });
        proc.on("close", (code) => {
          clearTimeout(timer);
          child = undefined;
          const stderr = Buffer.concat(err).toString("utf8");
          if (code !== 0) {
            reject(new Error(`${peer.name} harness (${mode}) exited with ${code}:\n${stderr}`));
            return;
          }
          const text = Buffer.concat(out).toString("utf8");
          resolve(text.length === 0 ? [] : text.replace(/\n$/, "").split("\n"));
        });
        proc.stdin.end(stdinLines.length === 0 ? "" : `${stdinLines.join("\n")}\n`);
      });
    },
    close() {
      if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
      child = undefined;
    },
  };
}

/** All Java-written fixtures, by name. */
export async function readFixtures(harness: HarnessRun): Promise<Map<string, Buffer>> {
  const fixtures = new Map<string, Buffer>();
  for (const line of await harness.run("fixtures")) {
    const tab = line.indexOf("\t");
    if (tab < 0) throw new Error(`malformed fixture line: ${line.slice(0, 80)}`);
    fixtures.set(line.slice(0, tab), Buffer.from(line.slice(tab + 1), "hex"));
  }
  return fixtures;
}

/** Java's description of each frame, in order (one Java process for all of them). */
export async function describeInJava(harness: HarnessRun, frames: readonly Uint8Array[]): Promise<string[]> {
  const lines = await harness.run(
    "decode",
    frames.map((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString("hex")),
  );
  if (lines.length !== frames.length) {
    throw new Error(`Java harness answered ${lines.length} lines for ${frames.length} frames`);
  }
  return lines;
}
