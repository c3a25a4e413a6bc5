// Builds a Java harness of ours against a classpath: Debian's Caucho Hessian jar by default, or the
// jars of real Java Dubbo (scripts/java-dubbo-deps.mjs), with the protobuf-java classes protoc
// generates from `.proto` files when there are any (and what protoc plugins, such as Dubbo's own
// stub generator, write beside them). Classes are cached under .tmp/<cacheName>/
// keyed by a hash of the sources and the classpath, so javac runs only after a change.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const HESSIAN_JAR = "/usr/share/java/hessian.jar";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CACHE_BASE = join(REPO_ROOT, ".tmp");

const INSTALL_HINT =
  "Install with: sudo apt-get install -y openjdk-17-jdk-headless libhessian-java " +
  "(npm test installs libhessian-java itself when run as root).";

/** The error for a missing JDK tool or jar, naming what to install. `suite` names the tests. */
export function missingJavaTool(suite: string, what: string): Error {
  return new Error(`The ${suite} need ${what}. ${INSTALL_HINT}`);
}

export interface JavaHarnessSources {
  /** `.java` files, and folders searched recursively for them. */
  readonly sources: readonly string[];
  /** The jars to compile (and later run) against; default Debian's Caucho Hessian jar. */
  readonly classpath?: readonly string[];
  /** The folder under `.tmp/` for the compiled classes. */
  readonly cacheName: string;
  /** What the tests are, for error messages: e.g. "Java Hessian conformance tests". */
  readonly suite: string;
  /** `.proto` files compiled with `protoc --java_out` into the harness (their runtime on `classpath`). */
  readonly protos?: JavaProtos;
}

interface JavaProtos {
  readonly protoc: string;
  readonly files: readonly string[];
  /** protoc plugins run beside `--java_out`, by name: `{ dubbo: launcher }` is `--plugin=protoc-gen-dubbo=launcher --dubbo_out`. */
  readonly plugins?: Readonly<Record<string, string>>;
}

function javaFiles(sources: readonly string[]): string[] {
  const files = sources.flatMap((source) =>
    source.endsWith(".java")
      ? [source]
      : readdirSync(source, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile() && e.name.endsWith(".java"))
          .map((e) => join(e.parentPath, e.name)),
  );
  return [...new Set(files)].sort();
}

/** Sources by content; jars (and protoc) by path and size (a jar's path already names its version). */
function buildHash(files: readonly string[], tools: readonly string[]): string {
  const hash = createHash("sha256");
  for (const jar of tools) hash.update(`${jar}\0${statSync(jar).size}\0`);
  for (const file of files)
    hash
      .update(`${relative(REPO_ROOT, file)}\0`)
      .update(readFileSync(file))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** Runs protoc --java_out (and the plugins) into `into` (each file's folder is its import root); returns the generated sources. */
function generateProtoJava(protos: JavaProtos, into: string, suite: string): string[] {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  const roots = [...new Set(protos.files.map((file) => dirname(file)))].map((root) => `-I${root}`);
  const plugins = Object.entries(protos.plugins ?? {}).flatMap(([name, launcher]) => [
    `--plugin=protoc-gen-${name}=${launcher}`,
    `--${name}_out=${into}`,
  ]);
  const protoc = spawnSync(protos.protoc, [...roots, `--java_out=${into}`, ...plugins, ...protos.files], {
    encoding: "utf8",
    timeout: 60_000,
  });
  if (protoc.status !== 0) {
    rmSync(into, { recursive: true, force: true });
    throw new Error(
      `protoc (${protos.protoc}) failed for the ${suite}:\n${protoc.stderr}${protoc.error?.message ?? ""}`,
    );
  }
  return javaFiles([into]);
}

/** Returns the class directory, compiling only when the sources (or the classpath) changed. */
export function compileJavaHarness(sources: JavaHarnessSources): string {
  const classpath = sources.classpath ?? [HESSIAN_JAR];
  if (sources.classpath === undefined && !existsSync(HESSIAN_JAR)) {
    throw missingJavaTool(sources.suite, `${HESSIAN_JAR} (Debian package libhessian-java)`);
  }
  const cacheRoot = join(CACHE_BASE, sources.cacheName);
  const files = javaFiles(sources.sources);
  const protos = sources.protos;
  const tools =
    protos === undefined ? classpath : [...classpath, protos.protoc, ...Object.values(protos.plugins ?? {})];
  const classes = join(cacheRoot, buildHash([...files, ...(protos?.files ?? [])], tools));
  if (existsSync(join(classes, ".complete"))) return classes;
  // Compile beside the final directory and rename, so a concurrent test file never sees half a build.
  const staging = `${classes}.${process.pid}.staging`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const generated =
    protos === undefined
      ? []
      : generateProtoJava(protos, `${classes}.${process.pid}.proto.staging`, sources.suite);
  const javac = spawnSync(
    "javac",
    ["-nowarn", "-encoding", "UTF-8", "-d", staging, "-cp", classpath.join(":"), ...files, ...generated],
    {
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  if (protos !== undefined)
    rmSync(`${classes}.${process.pid}.proto.staging`, { recursive: true, force: true });
  if ((javac.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    rmSync(staging, { recursive: true, force: true });
    throw missingJavaTool(sources.suite, "javac (a JDK, 17 or newer)");
  }
  if (javac.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`javac failed for the ${sources.suite}:\n${javac.stderr}${javac.error?.message ?? ""}`);
  }
  writeFileSync(join(staging, ".complete"), "");
  try {
    renameSync(staging, classes);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(classes, ".complete"))) throw error;
  }
  // Builds of older sources are dead weight; staging directories may belong to a concurrent run.
  for (const entry of readdirSync(cacheRoot)) {
    if (join(cacheRoot, entry) !== classes && !entry.endsWith(".staging")) {
      rmSync(join(cacheRoot, entry), { recursive: true, force: true });
    }
  }
  return classes;
}
