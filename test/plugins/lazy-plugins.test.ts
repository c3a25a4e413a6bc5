import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { REPO_ROOT, runToEnd } from "../run-process.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Runs a fixture program with the load recorder and returns what it printed and every module it loaded. */
async function loadsOf(program: string): Promise<{ stdout: string; loaded: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "dubbo-ts-loads-"));
  try {
    const log = join(dir, "loads.txt");
    const run = await runToEnd(
      process.execPath,
      ["--import", "tsx", "--import", fixture("record-loads.mjs"), fixture(program)],
      { cwd: REPO_ROOT, env: { ...process.env, RECORD_LOADS: log } },
    );
    assert.equal(run.code, 0, `${program} failed: ${run.stderr}`);
    return { stdout: run.stdout, loaded: readFileSync(log, "utf8").split("\n") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Triple's modules past its light entry (the protocol's name and the lazy IDL entry points), and its protobuf runtime. */
const tripleLoads = (loaded: string[]): string[] =>
  loaded.filter(
    (url) =>
      url.includes("@bufbuild/protobuf") ||
      (/\/src\/protocol\/triple\//.test(url) && !/\/(index|lazy-entry|proto-service)\.ts$/.test(url)),
  );

/**
 * What only some applications use: the YAML parser (a config file, rules), OpenTelemetry (a
 * registered tracer provider), and the QoS server with its commands and console (`start()`).
 */
const optionalLoads = (loaded: string[]): string[] =>
  loaded.filter((url) =>
    /\/node_modules\/(yaml|@opentelemetry\/api)\/|\/src\/qos\/|\/src\/app\/application-(qos|console)\.ts$/.test(
      url,
    ),
  );

describe("plugins load on first use", () => {
  it("plugins - an application on the embedded registry loads neither node-zookeeper-client nor the zookeeper registry", async () => {
    const { stdout, loaded } = await loadsOf("embedded-app.ts");
    assert.match(stdout, /called: hello lazy/);
    assert.ok(
      loaded.some((url) => url.includes("/src/registry/dubbo/")),
      "the recorder saw the embedded registry load",
    );
    // The zookeeper plugin's own entry (its registration and brand) is light and loads; the
    // registry, its session and client, and the application-level discovery on it do not.
    const zookeeper = loaded.filter((url) =>
      /node-zookeeper-client|\/zookeeper-registry\.ts|\/zk-[a-z-]+\.ts|\/zookeeper-discovery\.ts/.test(url),
    );
    assert.deepEqual(zookeeper, []);
    assert.deepEqual(tripleLoads(loaded), [], "a dubbo-only application loads no Triple module");
    assert.deepEqual(
      optionalLoads(loaded),
      [],
      "no config file, tracer provider or start(): no YAML, OpenTelemetry or QoS",
    );
  });

  it("plugins - a plain application (direct URL, no registry, no start()) loads neither YAML, OpenTelemetry, QoS nor the embedded registry", async () => {
    const { stdout, loaded } = await loadsOf("plain-app.ts");
    assert.match(stdout, /called: hello plain/);
    assert.deepEqual(optionalLoads(loaded), []);
    // The embedded registry's plugin entry and the public entry's lazy start are light; the
    // server, its store and its client load only in a process that starts or uses one.
    assert.deepEqual(
      loaded.filter(
        (url) =>
          /\/src\/registry\/dubbo\//.test(url) && !/\/(embedded-registry-plugin|lazy-entry)\.ts$/.test(url),
      ),
      [],
    );
  });

  it("plugins - an application that exports and refers over tri loads the Triple modules, and wrapper mode no @bufbuild/protobuf", async () => {
    const { stdout, loaded } = await loadsOf("tri-app.ts");
    assert.match(stdout, /called: hello tri/);
    const triple = tripleLoads(loaded);
    assert.ok(
      triple.some((url) => url.endsWith("/triple-protocol.ts")),
      "the tri protocol loaded",
    );
    assert.ok(
      loaded.some((url) => url.includes("/node_modules/")),
      "the recorder sees the packages that load",
    );
    assert.deepEqual(
      triple.filter((url) => url.includes("@bufbuild/protobuf")),
      [],
      "wrapper mode (Hessian 2 in a wrapper message) loads no protobuf runtime",
    );
  });

  it("plugins - an application with a dubbo.yaml loads the YAML parser", async () => {
    const { stdout, loaded } = await loadsOf("configured-app.ts");
    assert.match(stdout, /configured: lazy-configured/);
    assert.ok(
      loaded.some((url) => url.includes("/node_modules/yaml/")),
      "the recorder sees a package that loads through require",
    );
  });
});
