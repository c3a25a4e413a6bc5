// A Java EnumSet as Dubbo 3.3.6's hessian-lite really writes it (an EnumSetHandler object with
// `type` and `objects`, not a list) decodes to a JS Set of the enum values: of their constant names
// where a Set of the enum is declared, of the enum objects an untyped read gives otherwise.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { before, describe, it } from "node:test";
import { java } from "../../../src/core/java/java-type.js";
import { decodeHessian } from "../../../src/serialize/hessian2/index.js";
import { HESSIAN_JVM_FLAGS } from "../hessian/java-harness.js";
import { ColorType, jobj } from "../hessian/values.js";
import { javaPeerClasspath } from "./java-peer.js";

const JAVA_TIMEOUT_MS = 60_000;
let fixtures: Map<string, Buffer>;

function fixture(name: string): Buffer {
  const bytes = fixtures.get(name);
  assert.ok(bytes, `hessian-lite wrote no fixture named ${name}`);
  return bytes;
}

describe("hessian-lite 3.3.6 EnumSet", () => {
  before(() => {
    const run = spawnSync(
      "java",
      [...HESSIAN_JVM_FLAGS, "-cp", javaPeerClasspath("3.3"), "dubbots.interop.EnumSetFixtures"],
      { encoding: "utf8", timeout: JAVA_TIMEOUT_MS },
    );
    assert.equal(run.status, 0, `EnumSetFixtures failed: ${run.stderr}`);
    fixtures = new Map(
      run.stdout
        .trim()
        .split("\n")
        .map((line) => line.split("\t") as [string, string])
        .map(([name, hex]) => [name, Buffer.from(hex, "hex")]),
    );
  });

  it("a declared Set of the enum: a Set of constant names", () => {
    assert.deepEqual(
      decodeHessian(fixture("enumset.red-blue"), java.Set(ColorType)),
      new Set(["RED", "BLUE"]),
    );
    assert.deepEqual(
      decodeHessian(fixture("enumset.all"), java.Set(ColorType)),
      new Set(["RED", "GREEN", "BLUE"]),
    );
  });

  it("an untyped read: a Set of the enum objects", () => {
    const color = (name: string) => jobj("com.foo.Color", { name });
    assert.deepEqual(decodeHessian(fixture("enumset.red-blue")), new Set([color("RED"), color("BLUE")]));
  });

  it("in a declared List of Sets, the second set's back-references to the enums resolve", () => {
    const both = new Set(["RED", "BLUE"]);
    assert.deepEqual(decodeHessian(fixture("list.same-enumset-twice"), java.List(java.Set(ColorType))), [
      both,
      both,
    ]);
  });
});
