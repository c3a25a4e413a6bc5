// Compiles and runs the Java conformance harness (java/ beside this file) against Debian's Caucho
// Hessian jar. Compiled classes are cached under .tmp/ keyed by a hash of the sources, so only the
// first run after a change pays for javac.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const HESSIAN_JAR = "/usr/share/java/hessian.jar";
const HERE = dirname(fileURLToPath(import.meta.url));
const JAVA_SOURCES = join(HERE, "java");
const REPO_ROOT = join(HERE, "..", "..", "..");
const CACHE_ROOT = join(REPO_ROOT, ".tmp", "hessian-harness");
const MAIN_CLASS = "dubbots.interop.HessianHarness";

/** Caucho reflects into JDK classes (Throwable, BigInteger, collections); Java 17 needs them opened. */
const JVM_FLAGS = [
  "-XX:TieredStopAtLevel=1",
  "-Xss4m",
  "--add-opens=java.base/java.lang=ALL-UNNAMED",
  "--add-opens=java.base/java.util=ALL-UNNAMED",
  "--add-opens=java.base/java.math=ALL-UNNAMED",
  "--add-opens=java.base/java.time=ALL-UNNAMED",
];

const INSTALL_HINT =
  "Install with: sudo apt-get install -y openjdk-17-jdk-headless libhessian-java " +
  "(npm test installs libhessian-java itself when run as root).";

function missingToolError(what: string): Error {
  return new Error(`The Java Hessian conformance tests need ${what}. ${INSTALL_HINT}`);
}

function requireJar(): void {
  if (!existsSync(HESSIAN_JAR)) throw missingToolError(`${HESSIAN_JAR} (Debian package libhessian-java)`);
}

function javaFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".java")) files.push(join(entry.parentPath, entry.name));
  }
  return files.sort();
}

function sourceHash(files: readonly string[]): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(HESSIAN_JAR));
  for (const file of files) {
    hash.update(relative(JAVA_SOURCES, file));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/** Returns the class directory, compiling the harness only when its sources (or the jar) changed. */
export function compileHarness(): string {
  requireJar();
  const files = javaFiles(JAVA_SOURCES);
  const classes = join(CACHE_ROOT, sourceHash(files));
  if (existsSync(join(classes, ".complete"))) return classes;
  // Compile beside the final directory and rename, so a concurrent test file never sees half a build.
  const staging = `${classes}.${process.pid}.staging`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const javac = spawnSync(
    "javac",
    ["-nowarn", "-encoding", "UTF-8", "-d", staging, "-cp", HESSIAN_JAR, ...files],
    { encoding: "utf8", timeout: 120_000 },
  );
  if (javac.error !== undefined && (javac.error as NodeJS.ErrnoException).code === "ENOENT") {
    rmSync(staging, { recursive: true, force: true });
    throw missingToolError("javac (a JDK, 17 or newer)");
  }
  if (javac.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`javac failed for the Hessian harness:\n${javac.stderr}${javac.error?.message ?? ""}`);
  }
  writeFileSync(join(staging, ".complete"), "");
  try {
    renameSync(staging, classes);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(classes, ".complete"))) throw error;
  }
  // Builds of older sources are dead weight; staging directories may belong to a concurrent run.
  for (const entry of readdirSync(CACHE_ROOT)) {
    if (join(CACHE_ROOT, entry) !== classes && !entry.endsWith(".staging")) {
      rmSync(join(CACHE_ROOT, entry), { recursive: true, force: true });
    }
  }
  return classes;
}

export interface HarnessRun {
  /** Runs the harness once; resolves with its stdout lines. Rejects on exit code, stderr noise or timeout. */
  run(mode: "fixtures" | "decode", stdinLines?: readonly string[]): Promise<string[]>;
  /** Kills a run still in flight (call from `after`). */
  close(): void;
}

export function createHarnessRun(timeoutMs = 60_000): HarnessRun {
  let child: ChildProcess | undefined;
  return {
    run(mode, stdinLines = []) {
      const classes = compileHarness();
      return new Promise((resolve, reject) => {
        const proc = spawn("java", [...JVM_FLAGS, "-cp", `${classes}:${HESSIAN_JAR}`, MAIN_CLASS, mode], {
          stdio: ["pipe", "pipe", "pipe"],
        });
        child = proc;
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        const timer = setTimeout(() => {
          proc.kill("SIGKILL");
          reject(new Error(`Java Hessian harness (${mode}) did not finish within ${timeoutMs} ms`));
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
            reject(new Error(`Java Hessian harness (${mode}) exited with ${code}:\n${stderr}`));
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
