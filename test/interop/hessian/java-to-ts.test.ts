// Java → TS: every value Caucho Hessian (configured like Dubbo's hessian-lite) writes decodes to the
// JS value a user expects, with Java class names, bigint longs, int map keys and BizError fields.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { BizError } from "../../../src/core/error/biz-error.js";
import { java } from "../../../src/core/java/java-type.js";
import { decodeHessian } from "../../../src/serialize/hessian2/index.js";
import { decodeFrame, fixtureMismatches } from "./conformance.js";
import { describeJs } from "./describe-js.js";
import { FIXTURE_EXPECTATIONS } from "./fixture-expectations.js";
import { createHarnessRun, readFixtures } from "./java-harness.js";

const harness = createHarnessRun();
let fixtures: Map<string, Buffer>;

before(async () => {
  fixtures = await readFixtures(harness);
});
after(() => harness.close());

function fixture(name: string): Buffer {
  const bytes = fixtures.get(name);
  assert.ok(bytes, `the Java harness wrote no fixture named ${name}`);
  return bytes;
}

describe("hessian java-to-ts - Java fixtures decode", () => {
  it("hessian java-to-ts - the fixture set and the expectation table name the same values", () => {
    const written = [...fixtures.keys()].sort();
    const expected = Object.keys(FIXTURE_EXPECTATIONS).sort();
    assert.deepEqual(
      written.filter((n) => !expected.includes(n)),
      [],
      "fixtures without an expectation",
    );
    assert.deepEqual(
      expected.filter((n) => !written.includes(n)),
      [],
      "expectations without a fixture",
    );
  });

  it("hessian java-to-ts - each fixture really uses the compact form it is named for", () => {
    for (const [name, expectation] of Object.entries(FIXTURE_EXPECTATIONS)) {
      if (expectation.lead === undefined) continue;
      assert.equal(
        fixture(name)[0]?.toString(16),
        expectation.lead.toString(16),
        `first byte Java wrote for ${name}`,
      );
    }
  });

  it("hessian java-to-ts - every fixture decodes to the expected JS value", () => {
    const failures = fixtureMismatches(fixtures);
    assert.equal(
      failures.length,
      0,
      `${failures.length} fixtures decoded wrongly:\n  ${failures.join("\n  ")}`,
    );
  });

  it("hessian java-to-ts - a frame is fully consumed by its values", () => {
    // decodeHessian reads exactly one value; each single-value fixture must decode through it too.
    for (const name of ["user.simple", "string.mixed.70000", "bytes.70000", "list.users.shared"]) {
      const type = FIXTURE_EXPECTATIONS[name]?.type;
      assert.equal(
        describeJs(decodeHessian(fixture(name), type)),
        describeJs(...(FIXTURE_EXPECTATIONS[name]?.values ?? [])),
        name,
      );
    }
  });

  it("hessian java-to-ts - a Java exception keeps its Java stack frames", () => {
    const error = decodeHessian(fixture("exception.iae-with-cause"));
    assert.ok(error instanceof BizError, "decodes to a BizError");
    assert.ok(error.javaStack.length > 0, "javaStack is filled from stackTrace");
    assert.match(error.javaStack[0] ?? "", /^dubbots\.interop\.Fixtures\.all\(Fixtures\.java:\d+\)$/);
    assert.ok(error.cause instanceof BizError, "the cause is a BizError too");
  });

  it("hessian java-to-ts - longMode bigint and number choose the long representation", () => {
    assert.equal(decodeHessian(fixture("long.2047"), undefined, { longMode: "bigint" }), 2047n);
    assert.equal(
      decodeHessian(fixture("long.9007199254740993"), undefined, { longMode: "bigint" }),
      9007199254740993n,
    );
    assert.equal(
      decodeHessian(fixture("long.9007199254740993"), undefined, { longMode: "number" }),
      9007199254740992,
    );
    assert.equal(decodeHessian(fixture("long.9223372036854775807"), java.longBig), 9223372036854775807n);
    assert.throws(
      () => decodeHessian(fixture("long.9223372036854775807"), java.long),
      /declare it java\.longBig/,
    );
  });

  it("hessian java-to-ts - sorted and insertion-ordered Java maps keep their order", () => {
    const tree = decodeHessian(fixture("map.treemap"));
    const linked = decodeHessian(fixture("map.linkedhashmap"));
    assert.ok(tree instanceof Map && linked instanceof Map);
    assert.deepEqual([...tree.keys()], ["a", "b"]);
    assert.deepEqual([...linked.keys()], ["z", "y"]);
  });

  it("hessian java-to-ts - shared and cyclic references decode to the same JS object", () => {
    const [first, second] = decodeFrame(fixture("body.same-user-twice"), 2);
    assert.equal(first, second, "a reference across two values of one body is the same object");
    const team = decodeHessian(fixture("team.shared-lead")) as { lead: unknown; members: unknown[] };
    assert.equal(team.lead, team.members[0]);
    const node = decodeHessian(fixture("node.self")) as { next: unknown };
    assert.equal(node.next, node);
  });

  it("hessian java-to-ts - decoded Java objects carry a non-enumerable $class", () => {
    const ann = decodeHessian(fixture("user.simple")) as Record<string, unknown>;
    assert.equal(ann.$class, "com.foo.User");
    assert.deepEqual(Object.keys(ann).sort(), ["id", "name", "tags"]);
    assert.equal(JSON.stringify(ann), '{"id":1,"name":"ann","tags":["admin","dev"]}');
  });
});
