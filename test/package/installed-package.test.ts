// The package as a user gets it: `npm pack` (its prepare script builds dist/), the tarball
// installed into an empty project, TypeScript consumers type-checked under moduleResolution node16,
// bundler and node10 with this repository's tsc, then run under plain `node` (no tsx anywhere): a
// provider and a consumer over the embedded registry run by the installed `dubbo-ts` bin, a
// CommonJS consumer (require(esm)), an extension written against `dubbo-ts/extension`, and the
// README's first snippet, which must bind nothing (every README snippet is type-checked).
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type Finished,
  lineOf,
  listenedHosts,
  RECORD_LISTEN,
  REPO_ROOT,
  runToEnd,
  stopChild,
} from "../run-process.js";
import { readmeSnippets } from "./readme-snippet.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/consumer-project", import.meta.url));
const GENERATED_GREETER = fileURLToPath(new URL("../triple/gen/greeter_pb.ts", import.meta.url));
const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
const RECORD_LOADS = fileURLToPath(new URL("../plugins/fixtures/record-loads.mjs", import.meta.url));
/** What only some applications load: beyond its light entries, Triple, ZooKeeper and QoS, and their packages. */
const LAZY_PARTS =
  /\/src\/protocol\/triple\/(?!(index|lazy-entry|proto-service)\.ts$)|\/zookeeper-(registry|discovery)\.ts$|\/zk-[a-z-]+\.ts$|\/src\/qos\/|\/application-(qos|console)\.ts$|\/node_modules\/(yaml|@opentelemetry\/api|@bufbuild\/protobuf|node-zookeeper-client)\//;
const MANIFEST = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
  files: string[];
};
/** What `npm pack` needs from a checkout: the manifest, the build's configuration, the published files. */
const PACKED_INPUTS = [
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "scripts/build.mjs",
  "README.md",
  "LICENSE",
  ...MANIFEST.files.filter((f) => !f.startsWith("!") && f !== "dist"),
];

/**
 * A strict TypeScript project over the consumer's sources; only the module settings differ. Node16
 * also checks the package's own .d.ts files (skipLibCheck off): once is enough, and it is the slow part.
 */
function tsconfig(module: string, moduleResolution: string, include: string, outDir?: string): string {
  return JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module,
      moduleResolution,
      strict: true,
      skipLibCheck: moduleResolution !== "Node16",
      types: ["node"],
      typeRoots: [join(REPO_ROOT, "node_modules", "@types")],
      ...(outDir === undefined ? { noEmit: true } : { outDir, rootDir: include }),
    },
    include: [include],
  });
}

let stage: string;
let project: string;
let home: string;
const children: ChildProcess[] = [];

function nodeIn(args: readonly string[]): Promise<Finished> {
  return runToEnd(process.execPath, args, { cwd: project, env: { ...process.env, HOME: home } });
}

function spawnIn(command: string, args: readonly string[]): ChildProcess {
  const child = spawn(command, args, {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HOME: home },
  });
  children.push(child);
  return child;
}

// Packing builds the whole package with tsc: slow on a loaded machine, so the hook has its own bound.
before(
  async () => {
    stage = mkdtempSync(join(tmpdir(), "dubbo-ts-pack-"));
    project = mkdtempSync(join(tmpdir(), "dubbo-ts-consumer-"));
    home = mkdtempSync(join(tmpdir(), "dubbo-ts-consumer-home-"));
    for (const input of PACKED_INPUTS) {
      cpSync(join(REPO_ROOT, input), join(stage, input), { recursive: true });
    }
    symlinkSync(join(REPO_ROOT, "node_modules"), join(stage, "node_modules"), "dir");
    const pack = await runToEnd("npm", ["pack", "--pack-destination", stage], {
      cwd: stage,
      timeoutMs: 400_000,
    });
    assert.equal(pack.code, 0, `npm pack failed: ${pack.stderr}`);
    const tarball = readdirSync(stage).find((f) => f.endsWith(".tgz"));
    assert.ok(tarball, `npm pack wrote no tarball: ${pack.stdout}`);

    cpSync(FIXTURE, project, { recursive: true });
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    writeFileSync(join(project, "cjs", "package.json"), JSON.stringify({ type: "commonjs" }));
    // Every README snippet is type-checked with the consumer; the first one also runs. The Triple
    // IDL snippet imports protoc-gen-es output, as a user's project has it: the tests' own.
    mkdirSync(join(project, "src", "gen"));
    cpSync(GENERATED_GREETER, join(project, "src", "gen", "greeter_pb.ts"));
    for (const [index, snippet] of readmeSnippets().entries()) {
      writeFileSync(join(project, "src", `readme-${index + 1}.ts`), snippet);
    }
    const install = await runToEnd(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", join(stage, tarball)],
      { cwd: project, timeoutMs: 150_000 },
    );
    assert.equal(install.code, 0, `npm install of the tarball failed: ${install.stderr}`);
  },
  { timeout: 600_000 },
);

after(async () => {
  await Promise.all(children.map((child) => stopChild(child)));
  for (const dir of [stage, project, home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the installed package (npm pack, npm install, plain node)", () => {
  test("package - the tarball holds the build, its types, the bin, LICENSE and CHANGELOG, and no tests", () => {
    const installed = join(project, "node_modules", "dubbo-ts");
    for (const file of [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/extension.d.ts",
      "dist/cli/main.js",
      "LICENSE",
      "CHANGELOG.md",
    ]) {
      assert.ok(existsSync(join(installed, file)), `${file} is in the package`);
    }
    assert.ok(
      !existsSync(join(installed, "tsconfig.json")),
      "tsconfig.json is not published (the bin reads it as a checkout)",
    );
    const published = readdirSync(installed, { recursive: true }) as string[];
    assert.deepEqual(
      published.filter((f) => /\.test\.|^test\//.test(f)),
      [],
      "no test file is published",
    );
    assert.match(readFileSync(join(installed, "LICENSE"), "utf8"), /Apache License\s+Version 2\.0/);
    // The bundle's source maps name the sources rather than embed them: each must ship.
    const missingSources = published
      .filter((f) => /^dist\/.*\.js\.map$/.test(f))
      .flatMap((map) => {
        const { sources } = JSON.parse(readFileSync(join(installed, map), "utf8")) as { sources: string[] };
        return sources.filter((source) => !existsSync(join(installed, dirname(map), source)));
      });
    assert.deepEqual(missingSources, [], "every source a map of dist/ names is in the package");
  });

  test("package - every name the README uses is exported by the main entry", async () => {
    const names =
      "createDubbo defineService java runWithRpcContext getRpcContext RpcContext BizError RpcError Code Url startEmbeddedRegistry createWorkerInvoker";
    const script = `const m = await import("dubbo-ts"); console.log(${JSON.stringify(names.split(" "))}.filter((n) => m[n] === undefined).join(","));`;
    const run = await nodeIn(["--input-type=module", "-e", script]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "", "missing from dubbo-ts");
  });

  // node16 and node10 emit what the tests below run; bundler only type-checks.
  for (const [resolution, module, include, outDir] of [
    ["Node16", "Node16", "src", "dist"],
    ["Bundler", "ESNext", "src", undefined],
    ["Node10", "CommonJS", "cjs", "cjs/dist"],
  ] as const) {
    test(`package - a TypeScript consumer type-checks under moduleResolution ${resolution}`, async () => {
      const config = `tsconfig.${resolution.toLowerCase()}.json`;
      writeFileSync(join(project, config), tsconfig(module, resolution, include, outDir));
      const result = await runToEnd(process.execPath, [TSC, "-p", config], {
        cwd: project,
        timeoutMs: 110_000,
      });
      assert.equal(result.code, 0, `tsc (${resolution}) failed:\n${result.stdout}${result.stderr}`);
    });
  }

  test("package - a provider and a consumer under plain node find each other through the installed bin's registry", async () => {
    const registry = spawnIn(join(project, "node_modules", ".bin", "dubbo-ts"), ["registry", "--port", "0"]);
    const [, address] = await lineOf(
      registry,
      /listening on (dubbo:\/\/127\.0\.0\.1:\d+)/,
      "dubbo-ts registry",
    );
    const provider = spawnIn(process.execPath, ["dist/provider.js", address!]);
    await lineOf(provider, /^READY \d+$/, "the provider");
    const call = await nodeIn(["dist/consumer.js", address!, "package"]);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout.trim(), "Hello package");
    assert.equal(await stopChild(provider), 0, "the provider stopped gracefully on SIGTERM");
    assert.equal(await stopChild(registry), 0, "the registry stopped on SIGTERM");
  });

  test("package - a CommonJS consumer (node10, module commonjs) loads the ESM package through require(esm)", async () => {
    const run = await nodeIn(["cjs/dist/main.js"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "echo from commonjs function");
  });

  test("package - a filter and a load balancer written against dubbo-ts/extension take part in a call", async () => {
    const run = await nodeIn(["dist/extension.js"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "HELLO EXTENSION");
  });

  test("package - the README's first snippet runs as shown, listens on nothing and loads none of the lazy parts", async () => {
    const loads = join(project, "loads.txt");
    const run = await runToEnd(
      process.execPath,
      ["--import", RECORD_LISTEN, "--import", RECORD_LOADS, "dist/readme-1.js"],
      { cwd: project, env: { ...process.env, HOME: home, RECORD_LOADS: loads } },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "Hello world");
    assert.deepEqual(listenedHosts(run.stderr), [], "the first snippet opens no server");
    // The build bundles modules into chunks: what a chunk holds is in its source map.
    const loaded = readFileSync(loads, "utf8").split("\n");
    const bundled = loaded
      .filter((url) => url.includes("/node_modules/dubbo-ts/dist/"))
      .flatMap(
        (url) =>
          (JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, "utf8")) as { sources: string[] }).sources,
      );
    assert.ok(
      bundled.some((source) => source.endsWith("src/app/application.ts")),
      "the recorder saw the bundle load",
    );
    assert.deepEqual(
      [...loaded, ...bundled].filter((file) => LAZY_PARTS.test(file)),
      [],
      "an in-process application loads no Triple, ZooKeeper, QoS, YAML, OpenTelemetry or protobuf code",
    );
  });

  test("package - the installed bin answers --version and --help without dev dependencies and starts nothing", async () => {
    const bin = join(project, "node_modules", "dubbo-ts", "bin", "dubbo-ts.mjs");
    const version = await nodeIn([bin, "--version"]);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), MANIFEST.version);
    const help = await nodeIn(["--import", RECORD_LISTEN, bin, "registry", "--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /usage: dubbo-ts registry/);
    assert.deepEqual(listenedHosts(help.stderr), []);
  });

  // The build bundles the console into a chunk of dist/, which must still find the page in src/.
  test("package - an installed application serves the web console's page on its QoS port", async () => {
    const script = `
      import { createDubbo, silentLogger } from "dubbo-ts";
      const app = await createDubbo({ application: { name: "console-page", qosPort: 0 }, env: false, logger: silentLogger });
      await app.start();
      const page = await fetch("http://127.0.0.1:" + app.qosPort + "/console");
      console.log(page.status, /<title>dubbo-ts console<\\/title>/.test(await page.text()));
      await app.stop();`;
    const run = await nodeIn(["--input-type=module", "-e", script]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "200 true");
  });
});
