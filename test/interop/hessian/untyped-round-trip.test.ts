// Java → TS → Java without a contract type, as `$echo`, generic calls and `Object` parameters see
// values: every Java-written fixture, decoded untyped and re-encoded untyped, must read back in Java
// as the same Java type and value (a long stays a Long, 2.0 a Double, a BigDecimal a BigDecimal).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Hessian2Reader, Hessian2Writer } from "../../../src/serialize/hessian2/index.js";
import { FIXTURE_EXPECTATIONS } from "./fixture-expectations.js";
import { createHarnessRun, describeInJava, readFixtures } from "./java-harness.js";

const harness = createHarnessRun();
const names = Object.keys(FIXTURE_EXPECTATIONS).sort();
let original: string[] = [];
let echoed: string[] = [];

/** Decodes every value of a frame untyped into one array (as request arguments are read), then writes them back. */
function echo(bytes: Buffer, count: number): Uint8Array {
  const reader = new Hessian2Reader(bytes);
  const values: unknown[] = [];
  for (let i = 0; i < count; i++) reader.readSlot(values, i);
  const writer = new Hessian2Writer();
  for (let i = 0; i < count; i++) writer.writeSlot(values, i);
  return writer.toBuffer();
}

before(async () => {
  const fixtures = await readFixtures(harness);
  const frames = names.map((name) => fixtures.get(name) ?? Buffer.alloc(0));
  const counts = names.map((name) => FIXTURE_EXPECTATIONS[name]?.values.length ?? 1);
  original = await describeInJava(harness, frames);
  echoed = await describeInJava(
    harness,
    frames.map((bytes, i) => echo(bytes, counts[i]!)),
  );
});
after(() => harness.close());

describe("hessian untyped round trip - Java values keep their Java type through TS", () => {
  it("hessian untyped round trip - every fixture reads back in Java as Java wrote it", () => {
    const failures = names.flatMap((name, i) =>
      echoed[i] === original[i]
        ? []
        : [
            `${name}\n    java wrote: ${original[i]?.slice(0, 300)}\n    echoed:     ${echoed[i]?.slice(0, 300)}`,
          ],
    );
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${names.length} changed:\n${failures.join("\n")}`,
    );
  });
});
