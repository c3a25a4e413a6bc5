// Real Java Dubbo from Maven Central for the interop tests: each Maven project under
// test/interop/java-dubbo-real/maven/<name>/ lists one Dubbo version and its ZooKeeper client (or a
// tool the Java side needs, as protoc or Dubbo's protoc plugin), and
// `mvn dependency:copy-dependencies` copies their jars (and executables) into a cache outside the work tree,
// ~/.cache/dubbo-ts/java-dubbo/<name>-<hash of the pom>/lib, once per machine. A changed pom gets a
// new directory; an unchanged one is reused without running Maven.
//
//   node scripts/java-dubbo-deps.mjs        fetches what is missing and prints each lib directory
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const MAVEN_PROJECTS = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "test",
  "interop",
  "java-dubbo-real",
  "maven",
);
const CACHE_ROOT = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "dubbo-ts", "java-dubbo");
const FETCH_TIMEOUT_MS = 15 * 60_000;

/** The Maven project names (`dubbo-2.7`, `dubbo-3.3`, `protoc-3.25`, ...). */
export function javaDubboProjects() {
  return readdirSync(MAVEN_PROJECTS)
    .filter((name) => existsSync(join(MAVEN_PROJECTS, name, "pom.xml")))
    .sort();
}

/** Where the jars of one Maven project live (whether or not they were fetched yet). */
export function javaDubboLibDir(project) {
  const pom = join(MAVEN_PROJECTS, project, "pom.xml");
  if (!existsSync(pom)) throw new Error(`no Maven project ${project} under ${MAVEN_PROJECTS}`);
  const key = createHash("sha256").update(readFileSync(pom)).digest("hex").slice(0, 16);
  return join(CACHE_ROOT, `${project}-${key}`, "lib");
}

/** True when the project's jars are in the cache. */
export function javaDubboFetched(project) {
  return existsSync(join(javaDubboLibDir(project), ".complete"));
}

/** Fetches one project's jars unless cached; returns the lib directory or throws naming the fix. */
export function fetchJavaDubbo(project) {
  const lib = javaDubboLibDir(project);
  if (javaDubboFetched(project)) return lib;
  // Copy into a staging directory and rename, so a concurrent run never sees half the jars.
  const staging = `${lib}.${process.pid}.staging`;
  rmSync(staging, { recursive: true, force: true });
  const mvn = spawnSync(
    "mvn",
    [
      "-q",
      "-B",
      "-f",
      join(MAVEN_PROJECTS, project, "pom.xml"),
      "dependency:copy-dependencies",
      `-DoutputDirectory=${staging}`,
    ],
    { encoding: "utf8", timeout: FETCH_TIMEOUT_MS },
  );
  if (mvn.error?.code === "ENOENT") {
    throw new Error(
      "The Java Dubbo interop tests need Maven (mvn) to fetch Dubbo from Maven Central. " +
        "Install it with: sudo apt-get install -y maven (npm test installs it itself when run as root).",
    );
  }
  if (mvn.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `mvn could not fetch ${project} (test/interop/java-dubbo-real/maven/${project}/pom.xml) from Maven Central:\n` +
        `${mvn.stdout}${mvn.stderr}${mvn.error?.message ?? ""}`,
    );
  }
  // Maven copies executables (protoc) without their mode bits.
  for (const name of readdirSync(staging)) if (name.endsWith(".exe")) chmodSync(join(staging, name), 0o755);
  writeFileSync(join(staging, ".complete"), "");
  try {
    renameSync(staging, lib);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!javaDubboFetched(project)) throw error;
  }
  return lib;
}

/** The classpath (every jar of the lib directory) of a fetched project. */
export function javaDubboClasspath(project) {
  const lib = javaDubboLibDir(project);
  if (!javaDubboFetched(project)) {
    throw new Error(
      `Java Dubbo ${project} is not fetched yet; run: node scripts/java-dubbo-deps.mjs (npm test does it first)`,
    );
  }
  return readdirSync(lib)
    .filter((name) => name.endsWith(".jar"))
    .sort()
    .map((name) => join(lib, name));
}

/** The protoc of the `protoc-3.25` project (a linux-x86_64 build, as the test machines are). */
export function javaProtoc() {
  const lib = javaDubboLibDir("protoc-3.25");
  const exe = javaDubboFetched("protoc-3.25")
    ? readdirSync(lib).find((name) => name.endsWith(".exe"))
    : undefined;
  if (exe === undefined) {
    throw new Error(
      "protoc is not fetched yet; run: node scripts/java-dubbo-deps.mjs (npm test does it first)",
    );
  }
  return join(lib, exe);
}

/**
 * The protoc plugin of the `dubbo-compiler-3.3` project, Dubbo's own Triple stub generator
 * (`--plugin=protoc-gen-dubbo=<this> --dubbo_out=...`): a launcher script beside its lib directory
 * that runs the generator's main class on the project's jars, written on first use.
 */
export function javaDubboProtocPlugin() {
  const launcher = join(dirname(javaDubboLibDir("dubbo-compiler-3.3")), "protoc-gen-dubbo");
  if (existsSync(launcher)) return launcher;
  const classpath = javaDubboClasspath("dubbo-compiler-3.3").join(":");
  // Written aside and renamed, so a concurrent test file never runs half a script.
  const staging = `${launcher}.${process.pid}.staging`;
  writeFileSync(
    staging,
    `#!/bin/sh\nexec java -cp "${classpath}" org.apache.dubbo.gen.tri.Dubbo3TripleGenerator "$@"\n`,
    { mode: 0o755 },
  );
  renameSync(staging, launcher);
  return launcher;
}

/** Fetches every project that is missing; prints one line per project fetched. */
export function ensureJavaDubbo() {
  for (const project of javaDubboProjects()) {
    if (javaDubboFetched(project)) continue;
    const started = Date.now();
    process.stdout.write(`\n▶ fetching Java Dubbo ${project} from Maven Central (once per machine)\n`);
    fetchJavaDubbo(project);
    process.stdout.write(`✔ ${project} in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureJavaDubbo();
  for (const project of javaDubboProjects())
    process.stdout.write(`${project}\t${javaDubboLibDir(project)}\n`);
}
