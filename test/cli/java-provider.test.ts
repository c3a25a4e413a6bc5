// A real Java Dubbo 3.3.6 provider (java/provider) of our API, registered in a real ZooKeeper,
// called through contracts `dubbo-ts gen` wrote: our CatalogService from the classes directory and
// Dubbo's own MetadataService from its jar. Then the operator's commands (invoke, ls, qos) as a
// user runs them, the bin as a process, against the same provider, ZooKeeper and Java's QoS port.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { Url } from "../../src/core/index.js";
import { BizError, createDubbo, type ServiceDefinition } from "../../src/index.js";
import { waitFor } from "../../src/testing/index.js";
import { type PeerProcess, spawnPeer } from "../interop/java-dubbo-real/java-peer.js";
import { useZooKeeper } from "../registry/zookeeper-fixture.js";
import { type Finished, REPO_ROOT, runToEnd } from "../run-process.js";
import { dubboJar, providerBuild, scratchDir } from "./java-api.js";

const BIN = join(REPO_ROOT, "bin", "dubbo-ts.mjs");
const SRC_INDEX = join(REPO_ROOT, "src", "index.js");
const CATALOG = "com.foo.api.CatalogService";
const fixture = useZooKeeper("dubbo-ts-cli-");

function dubboTs(...args: string[]): Promise<Finished> {
  return runToEnd(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, timeoutMs: 60_000 });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Generates a contract module into `out` (importing the project's sources) and loads it. */
async function generated(
  out: string,
  ...args: string[]
): Promise<{ file: string; contracts: Record<string, ServiceDefinition> }> {
  const run = await dubboTs("gen", ...args, "--out", out, "--import-from", relative(out, SRC_INDEX));
  assert.equal(run.code, 0, run.stderr);
  const file = join(out, "contracts.ts");
  return { file, contracts: (await import(pathToFileURL(file).href)) as Record<string, ServiceDefinition> };
}

type Callable = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** A stub of a contract loaded at run time (its method types are not known to this file), on the Java provider. */
async function referJava(
  definition: ServiceDefinition,
  provider: string,
  options: { group?: string } = {},
): Promise<{ stub: Callable } & AsyncDisposable> {
  const app = await createDubbo({
    application: { name: "gen-consumer", qosEnable: false },
    shutdownHook: false,
  });
  const stub = (await app.refer(definition, {
    url: `dubbo://${provider}`,
    version: "1.0.0",
    timeoutMs: 5000,
    ...options,
  })) as unknown as Callable;
  return { stub, [Symbol.asyncDispose]: () => app.stop() };
}

describe("a Java Dubbo 3.3.6 provider through generated contracts, and the operator's commands", () => {
  let java: PeerProcess | undefined;
  let provider = ""; // host:port Java registered
  let qosPort = 0;
  let catalogFile = "";
  let catalog: ServiceDefinition;
  let metadata: ServiceDefinition;

  before(async () => {
    const dir = scratchDir("cli-java-provider");
    const { classes, classpath } = providerBuild();
    const catalogModule = await generated(join(dir, "catalog"), classes, "--package", "com.foo.api");
    catalogFile = catalogModule.file;
    catalog = catalogModule.contracts.CatalogService!;
    metadata = (
      await generated(
        join(dir, "metadata"),
        dubboJar(),
        "--interface",
        "org.apache.dubbo.metadata.MetadataService",
      )
    ).contracts.MetadataService!;
    qosPort = await freePort();
    java = spawnPeer(
      "3.3",
      "gen-catalog",
      [`zookeeper://${fixture.zk.connectString}`, String(await freePort()), String(qosPort)],
      {
        mainClass: "dubbots.gen.CatalogProvider",
        classpath,
        properties: [],
      },
    );
    const ready = await java.next(90_000);
    assert.equal(ready, '"READY"', java.log());
    // A loaded machine may have the inspector between sessions right now: read again until it answers.
    let nodes: string[] = [];
    await waitFor("the inspector's read of the providers", async () => {
      nodes =
        (await fixture.inspector.getChildren(`/dubbo/${CATALOG}/providers`).catch(() => undefined)) ?? [];
      return nodes.length > 0;
    });
    assert.equal(nodes.length, 1, "Java registered its provider per interface");
    provider = Url.decode(nodes[0]!).address;
  });
  after(async () => {
    await java?.stop();
  });

  test("java provider - every method of the generated CatalogService, and a POJO round trip", async () => {
    await using consumer = await referJava(catalog, provider);
    const { stub } = consumer;
    const found = (await stub.find!(7)) as Record<string, unknown>;
    assert.equal(found.id, 7);
    assert.equal(found.name, "chair");
    assert.equal(found.price, "19.99");
    assert.equal(found.color, "BLUE");
    assert.deepEqual(found.tags, ["new", "sale"]);
    assert.deepEqual(found.attributes, new Map([["material", "oak"]]));
    assert.deepEqual(found.alsoIn, new Set(["RED"]));
    assert.deepEqual({ ...(found.dimensions as object) }, { width: 1.5, height: 2.25 });
    assert.deepEqual(found.createdAt, new Date(1700000000000));
    assert.deepEqual(found.ratings, [5, 4]);

    const saved = (await stub.save!({ ...found, name: "table", price: "5.10", color: "GREEN" })) as Record<
      string,
      unknown
    >;
    assert.equal(saved.id, 8, "Java read the inherited field");
    assert.equal(
      saved.name,
      "table (saved by Java: com.foo.api.Product, price BigDecimal 5.10, color Color GREEN, dimensions Dimensions)",
    );
    assert.deepEqual(saved.tags, ["new", "sale"]);

    const searched = (await stub.search!("lamp", new Set(["RED", "BLUE"]))) as Array<Record<string, unknown>>;
    // Java iterates its HashSet of enums in identity-hash order, which differs from run to run.
    assert.deepEqual(searched.map((p) => [p.name, p.color]).sort(), [
      ["lamp-BLUE", "BLUE"],
      ["lamp-RED", "RED"],
    ]);
    const byName = (await stub.byName!(["ab", "abc"])) as Map<string, Record<string, unknown>>;
    assert.deepEqual(
      [...byName].map(([k, v]) => [k, v.id]),
      [
        ["ab", 2],
        ["abc", 3],
      ],
    );
    assert.equal(await stub.describe!(1, 2, 3, 4, 1.5, 2.5, true, "c"), "1 2 3 4 1.5 2.5 true c");
    assert.equal(await stub.describeBoxed!(1, 2, 3.5, false), "Integer=1 Long=2 Double=3.5 Boolean=false");
    assert.equal(await stub.total!(["1.10", "2.20"]), "3.30");
    assert.deepEqual(await stub.lengths!(["a", "bcd"]), [1, 3]);
    assert.deepEqual(await stub.shift!(new Date(0), 2), new Date(2 * 86_400_000));
    assert.deepEqual([...((await stub.reverse!(Uint8Array.of(1, 2, 3))) as Uint8Array)], [3, 2, 1]);
    assert.equal(await stub.next!("BLUE"), "RED");
    assert.equal(await stub.touch!(1), null, "a void method answers null");
    assert.equal(await stub.count!(), 3);
    assert.equal(await stub.countString!("abcd"), 4);
    assert.equal(await stub.countStringBoolean!("abcd", true), 40);
    await assert.rejects(stub.find!(0), (error: unknown) => {
      assert.ok(error instanceof BizError);
      assert.equal(error.javaClass, "com.foo.api.NotFoundException");
      assert.match(error.message, /no product 0/);
      return true;
    });
  });

  test("java provider - Dubbo's own MetadataService, generated from its jar, answers its MetadataInfo", async () => {
    await using consumer = await referJava(metadata, provider, { group: "gen-catalog" });
    const { stub } = consumer;
    assert.equal(await stub.serviceName!(), "gen-catalog");
    const infos = (await stub.getMetadataInfos!()) as Array<Record<string, unknown>>;
    assert.equal(infos.length, 1);
    const info = infos[0]!;
    assert.equal(info.app, "gen-catalog");
    const services = info.services as Map<string, Record<string, unknown>>;
    const entry = [...services.values()].find((s) => s.name === CATALOG);
    assert.ok(entry, `the metadata lists ${CATALOG}: ${[...services.keys()]}`);
    assert.equal(entry.version, "1.0.0");
    assert.equal(entry.protocol, "dubbo");
    const byRevision = (await stub.getMetadataInfo!(info.revision)) as Record<string, unknown>;
    assert.equal(byRevision.revision, info.revision);
    assert.deepEqual([...(byRevision.services as Map<string, unknown>).keys()], [...services.keys()]);
  });

  test("cli - invoke through the generated contract module, directly and through ZooKeeper with --types", async () => {
    const direct = await dubboTs(
      "invoke",
      `dubbo://${provider}`,
      CATALOG,
      "find",
      "[7]",
      "--contract",
      catalogFile,
      "--version",
      "1.0.0",
      "--json",
    );
    assert.equal(direct.code, 0, direct.stderr);
    const answer = JSON.parse(direct.stdout) as { result: Record<string, unknown>; elapsedMs: number };
    assert.equal(answer.result.name, "chair");
    assert.deepEqual(answer.result.attributes, { material: "oak" });
    assert.equal(typeof answer.elapsedMs, "number");
    assert.equal(direct.stderr, "", "no progress line when stderr is not a terminal");

    const overload = await dubboTs(
      "invoke",
      `dubbo://${provider}`,
      CATALOG,
      "count",
      '["abcd", true]',
      "--contract",
      catalogFile,
      "--version",
      "1.0.0",
    );
    assert.equal(overload.code, 0, overload.stderr);
    assert.match(overload.stdout, /^result: 40\nelapsed: \d+ ms\n$/);

    const viaRegistry = await dubboTs(
      "invoke",
      `zookeeper://${fixture.zk.connectString}`,
      CATALOG,
      "count",
      '["abc"]',
      "--types",
      "java.lang.String",
      "--version",
      "1.0.0",
      "--json",
    );
    assert.equal(viaRegistry.code, 0, viaRegistry.stderr);
    assert.equal((JSON.parse(viaRegistry.stdout) as { result: unknown }).result, 3);

    const thrown = await dubboTs(
      "invoke",
      `dubbo://${provider}`,
      CATALOG,
      "find",
      "[0]",
      "--contract",
      catalogFile,
      "--version",
      "1.0.0",
    );
    assert.equal(thrown.code, 1);
    assert.equal(
      thrown.stderr,
      "dubbo-ts invoke: com.foo.api.CatalogService.find threw com.foo.api.NotFoundException: no product 0\n",
    );
    const thrownGeneric = await dubboTs(
      "invoke",
      `dubbo://${provider}`,
      CATALOG,
      "find",
      "[0]",
      "--types",
      "long",
      "--version",
      "1.0.0",
    );
    assert.equal(thrownGeneric.code, 1);
    assert.equal(
      thrownGeneric.stderr,
      "dubbo-ts invoke: com.foo.api.CatalogService.find threw com.alibaba.dubbo.rpc.service.GenericException: com.foo.api.NotFoundException: no product 0\n",
      "Java's generic service wraps the exception (its message ends the first line)",
    );
  });

  test("cli - ls lists the Java provider and qos speaks to Java's QoS port", async () => {
    const ls = await dubboTs("ls", `zookeeper://${fixture.zk.connectString}`, "--json");
    assert.equal(ls.code, 0, ls.stderr);
    const listing = JSON.parse(ls.stdout) as { services: Record<string, Record<string, string[]>> };
    const providers = listing.services[CATALOG]?.providers ?? [];
    assert.equal(providers.length, 1, ls.stdout);
    assert.equal(Url.parse(providers[0]!).address, provider);
    const text = await dubboTs("ls", `zookeeper://${fixture.zk.connectString}`);
    assert.match(
      text.stdout,
      new RegExp(`^${CATALOG.replaceAll(".", "\\.")}  1 provider\\(s\\)\\n  providers:\\n    dubbo://`, "m"),
    );

    const qosLs = await dubboTs("qos", `127.0.0.1:${qosPort}`, "ls");
    assert.equal(qosLs.code, 0, qosLs.stderr);
    assert.match(qosLs.stdout, /com\.foo\.api\.CatalogService:1\.0\.0/);
    const ready = await dubboTs("qos", `127.0.0.1:${qosPort}`, "ready", "--json");
    assert.equal(ready.code, 0, ready.stderr);
    assert.equal((JSON.parse(ready.stdout) as { status: number }).status, 200);
  });

  test("cli - invoke, ls and qos mistakes are one line naming the argument", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["invoke", `dubbo://${provider}`, CATALOG], /give the address, the interface and the method/],
      [["invoke", `dubbo://${provider}`, CATALOG, "find", "[7]"], /give either --types .* or --contract/],
      [
        ["invoke", `dubbo://${provider}`, CATALOG, "find", "7", "--types", "long"],
        /the arguments 7 are not a JSON array/,
      ],
      [
        ["invoke", `dubbo://${provider}`, CATALOG, "find", "[7, 8]", "--types", "long"],
        /--types names 1 type\(s\) for 2 argument\(s\)/,
      ],
      [
        ["invoke", `dubbo://${provider}`, CATALOG, "count", '["a", 1, 2]', "--contract", catalogFile],
        /has no method count taking 3 argument\(s\)/,
      ],
      [
        ["invoke", "localhost", CATALOG, "count", "[]", "--types", "-"],
        /the address "localhost" has no scheme:\/\/host/,
      ],
      [["ls", `dubbo://${provider}`], /is a provider address; ls needs a registry URL/],
      [["qos", "127.0.0.1", "ls"], /the QoS address "127\.0\.0\.1" is not host:port/],
      [
        ["qos", `127.0.0.1:${qosPort}`, "ls", "--tiemout", "5"],
        /unknown flag --tiemout; the flags are --timeout, --json/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const run = await dubboTs(...args);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      const lines = run.stderr.split("\n").filter((l) => l !== "");
      assert.equal(lines.length, 1, `one line, no stack trace:\n${run.stderr}`);
      assert.match(lines[0]!, pattern);
    }
  });
});
