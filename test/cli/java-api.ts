// The Java side of the `dubbo-ts gen` tests: our own API (java/api) as a jar compiled with
// parameter names, the same API plus a Dubbo 3.3.6 provider of it as a classes directory, and
// javap's descriptors as the independent answer to what the contract must say.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { javaDubboClasspath } from "../../scripts/java-dubbo-deps.mjs";
import { compileJavaHarness, missingJavaTool } from "../interop/java-build.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const API_SOURCES = join(HERE, "java", "api");
const PROVIDER_SOURCES = join(HERE, "java", "provider");
const SUITE = "dubbo-ts gen tests";

function run(tool: string, args: readonly string[], cwd?: string): string {
  const result = spawnSync(tool, args, { encoding: "utf8", timeout: 120_000, ...(cwd ? { cwd } : {}) });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    throw missingJavaTool(SUITE, `${tool} (a JDK, 17 or newer)`);
  }
  if (result.status !== 0)
    throw new Error(`${tool} ${args.join(" ")} failed:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/**
 * `dir/<sources>.jar`: the Java sources under java/<sources>/com/foo/<sources> (our API, or the
 * generic repository interfaces) compiled with `-parameters` (so the contract names each parameter).
 */
export function buildApiJar(dir: string, sources: "api" | "repo" = "api"): string {
  const root = sources === "api" ? API_SOURCES : join(HERE, "java", "generic");
  const classes = join(dir, `${sources}-classes`);
  mkdirSync(classes, { recursive: true });
  const files = readdirSync(join(root, "com", "foo", sources)).map((f) =>
    join(root, "com", "foo", sources, f),
  );
  run("javac", ["-parameters", "-nowarn", "-encoding", "UTF-8", "-d", classes, ...files]);
  const jar = join(dir, `${sources}.jar`);
  run("jar", ["cf", jar, "-C", classes, "."]);
  return jar;
}

/** The API and its Java provider compiled against Dubbo 3.3.6, without parameter names; and the classpath to run it. */
export function providerBuild(): { readonly classes: string; readonly classpath: string } {
  const jars = javaDubboClasspath("dubbo-3.3");
  const classes = compileJavaHarness({
    sources: [API_SOURCES, PROVIDER_SOURCES],
    classpath: jars,
    cacheName: "dubbo-ts-gen",
    suite: SUITE,
  });
  return { classes, classpath: [classes, ...jars].join(":") };
}

/** Dubbo 3.3.6's own jar, as scripts/java-dubbo-deps.mjs fetched it from Maven Central. */
export function dubboJar(): string {
  const jar = javaDubboClasspath("dubbo-3.3").find((path) => /\/dubbo-3\.3\.6\.jar$/.test(path));
  if (jar === undefined) throw new Error("dubbo-3.3.6.jar is not among the fetched Java Dubbo 3.3 jars");
  return jar;
}

/**
 * Every method of `className` as javap prints it, `name(descriptor)return`, public abstract and
 * default methods only (static ones are not remote).
 */
export function javapMethods(classpath: string, className: string): string[] {
  const out = run("javap", ["-s", "-public", "-cp", classpath, className]);
  const methods: string[] = [];
  const lines = out.split("\n");
  for (let i = 0; i < lines.length - 1; i++) {
    const declaration = lines[i]!.trim();
    const descriptor = /^descriptor: (\(.*)$/.exec(lines[i + 1]!.trim())?.[1];
    const name = /([\w$]+)\(/.exec(declaration)?.[1];
    if (descriptor === undefined || name === undefined || /\bstatic\b/.test(declaration)) continue;
    methods.push(`${name}${descriptor}`);
  }
  return methods.sort();
}

/** A directory under the repository's .tmp (ignored by git and biome), fresh for this process. */
export function scratchDir(name: string): string {
  const dir = join(HERE, "..", "..", ".tmp", `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
