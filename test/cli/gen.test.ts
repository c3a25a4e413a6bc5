// `dubbo-ts gen` run as a user runs it (the bin, as a process) on a jar compiled here from Java
// sources of ours, on a classes directory, and on Dubbo 3.3.6's own jar from Maven Central. What
// the contract must say is checked against javap (the JDK's reading of the same class files),
// and the generated module is type-checked with the project's compiler settings.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import type { ServiceDefinition } from "../../src/core/index.js";
import type { Finished } from "../run-process.js";
import { contractSignatures, gen, typeCheck, typeCheckUse } from "./gen-kit.js";
import { buildApiJar, dubboJar, javapMethods, providerBuild, scratchDir } from "./java-api.js";
import { dubboTs } from "./run-cli.js";

function usageError(run: Finished, pattern: RegExp): void {
  assert.equal(run.code, 2, run.stderr);
  const lines = run.stderr.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, `one line, no stack trace:\n${run.stderr}`);
  assert.match(lines[0]!, pattern);
}

describe("dubbo-ts gen", () => {
  test("gen - our API jar: every Java type, enums, POJOs with inherited fields, overloads, throws", async () => {
    const dir = scratchDir("gen-api-jar");
    const jar = buildApiJar(dir);
    const out = join(dir, "out");
    const { file, text, run } = await gen(out, jar, "--package", "com.foo.api");
    assert.match(run.stderr, /wrote .*contracts\.ts: 2 service\(s\), 3 enum\/POJO type\(s\)/);
    assert.equal(run.stdout, "", "the module goes to --out, not to stdout");

    assert.ok(
      text.includes('export const Color = java.enum("com.foo.api.Color", ["RED", "GREEN", "BLUE"]);'),
      text,
    );
    // Own fields first, then the superclass's (hessian-lite's order); the transient field is left out.
    assert.ok(
      text.includes(`export const Product = java.Class("com.foo.api.Product", {
  name: java.String,
  price: java.BigDecimal,
  color: Color,
  stock: java.Integer,
  tags: java.List(java.String),
  attributes: java.Map(java.String, java.String),
  alsoIn: java.Set(Color),
  dimensions: Dimensions,
  related: java.List(java.type("com.foo.api.Product")),
  ratings: java.array(java.int),
  id: java.long,
  createdAt: java.Date,
});
export type Product = JavaValue<typeof Product>;`),
      text,
    );
    assert.ok(
      text.includes(
        "  /** @throws com.foo.api.NotFoundException */\n  find: { args: (id = java.long) => [id], returns: Product },",
      ),
      text,
    );
    assert.ok(
      text.includes(
        '  countStringBoolean: { javaName: "count", args: (name = java.String, inStock = java.boolean) => [name, inStock], returns: java.int },',
      ),
      text,
    );
    assert.ok(
      text.includes(
        "search: { args: (text = java.String, colors = java.Set(Color)) => [text, colors], returns: java.List(Product) }",
      ),
    );
    assert.doesNotMatch(text, /cachedLabel|serialVersionUID|DEFAULT|none:/);

    const contracts = (await import(pathToFileURL(file).href)) as Record<string, ServiceDefinition>;
    const classes = join(dir, "api-classes");
    assert.deepEqual(
      contractSignatures(contracts.CatalogService!),
      [
        ...javapMethods(classes, "com.foo.api.CatalogService"),
        ...javapMethods(classes, "com.foo.api.Counting"),
      ].sort(),
      "every method, inherited ones too, with the descriptor Java dispatches on",
    );
    assert.deepEqual(contractSignatures(contracts.Counting!), javapMethods(classes, "com.foo.api.Counting"));

    typeCheckUse(
      dir,
      out,
      file,
      `import { CatalogService, type Color, type Product } from "./contracts.js";
export async function use(stub: ServiceStub<typeof CatalogService.methods>): Promise<string> {
  const product: Product = await stub.find(1);
  const colors: Color[] = [...product.alsoIn];
  const width: number = product.dimensions.width;
  const price: string = product.price;
  const counted: number = await stub.countStringBoolean("chair", true);
  // @ts-expect-error an enum value outside the Java constants does not compile
  await stub.next("PURPLE");
  return \`\${colors.join()} \${width} \${price} \${counted} \${await stub.describe(1, 2, 3, 4, 5, 6, true, "c")}\`;
}
`,
    );
  });

  test("gen - a classes directory without parameter names: list-form args, other packages left out", async () => {
    const dir = scratchDir("gen-classes-dir");
    const { classes } = providerBuild();
    const { text } = await gen(join(dir, "out"), classes, "--package", "com.foo.api");
    assert.ok(text.includes("  find: { args: [java.long], returns: Product },"), text);
    assert.ok(
      text.includes('  countString: { javaName: "count", args: [java.String], returns: java.int },'),
      text,
    );
    assert.doesNotMatch(text, /dubbots/);
  });

  test("gen - Dubbo 3.3.6's own MetadataService and its MetadataInfo POJOs, from the jar of Maven Central", async () => {
    const dir = scratchDir("gen-dubbo-jar");
    const jar = dubboJar();
    const { file, text } = await gen(
      join(dir, "out"),
      jar,
      "--interface",
      "org.apache.dubbo.metadata.MetadataService",
    );
    assert.ok(
      text.includes(`export const MetadataInfo = java.Class("org.apache.dubbo.metadata.MetadataInfo", {
  app: java.String,
  revision: java.String,
  services: java.Map(java.String, MetadataInfo_ServiceInfo),
});`),
      text,
    );
    assert.ok(
      text.includes(`export const MetadataInfo_ServiceInfo = java.Class("org.apache.dubbo.metadata.MetadataInfo$ServiceInfo", {
  name: java.String,
  group: java.String,
  version: java.String,
  protocol: java.String,
  port: java.int,
  path: java.String,
  params: java.Map(java.String, java.String),
});`),
      text,
    );
    assert.ok(
      text.includes(
        "  getMetadataInfo: { args: (revision = java.String) => [revision], returns: MetadataInfo },",
      ),
    );
    const contracts = (await import(pathToFileURL(file).href)) as Record<string, ServiceDefinition>;
    assert.deepEqual(
      contractSignatures(contracts.MetadataService!),
      javapMethods(jar, "org.apache.dubbo.metadata.MetadataService"),
    );
    typeCheck(dir, [file]);
  });

  test("gen - mistakes are one line naming what to change", async () => {
    usageError(await dubboTs("gen"), /give the jar or classes directory to read/);
    usageError(
      await dubboTs("gen", "no-such.jar"),
      /no-such\.jar does not exist; give a \.jar file or a classes directory/,
    );
    usageError(
      await dubboTs("gen", dubboJar(), "--pakage", "x"),
      /unknown flag --pakage; the flags are --package, --interface, --out, --import-from/,
    );
    const dir = scratchDir("gen-mistakes");
    const jar = buildApiJar(dir);
    usageError(
      await dubboTs("gen", jar, "--package", "com.foo"),
      /has no public interface in package com\.foo; change --package or --interface \(packages with interfaces: com\.foo\.api\)/,
    );
    const notAJar = join(dir, "notes.jar");
    writeFileSync(notAJar, "not a zip");
    const damaged = await dubboTs("gen", notAJar);
    assert.equal(damaged.code, 1);
    assert.match(damaged.stderr, /notes\.jar is not a jar or zip file/);
  });
});
