// TS → Java: our bytes, read by Caucho Hessian configured like Dubbo's hessian-lite, arrive as the
// Java types the contract names (List<User> as ArrayList of com.foo.User, BigDecimal exact, longs
// beyond 2^53 exact, a JS Error as a Throwable with its message).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeHessian, Hessian2Writer } from "../../../src/serialize/hessian2/index.js";
import { createHarnessRun, describeInJava } from "./java-harness.js";
import { TS_TO_JAVA_CASES } from "./ts-to-java-cases.js";

const harness = createHarnessRun();
/** Java's description of each case's body, by case index (all bodies decoded by one Java run). */
let javaSaw: string[] = [];
const encodeErrors = new Map<number, string>();

function encodeCase(c: (typeof TS_TO_JAVA_CASES)[number]): Uint8Array {
  if (c.frame !== undefined) return c.frame();
  const body = c.body;
  if (body.length === 1) {
    const [value, type] = body[0] ?? [];
    return encodeHessian(value, type);
  }
  const writer = new Hessian2Writer();
  for (const [value, type] of body) writer.writeValue(value, type);
  return writer.toBuffer();
}

before(async () => {
  const frames = TS_TO_JAVA_CASES.map((c, i) => {
    try {
      return encodeCase(c);
    } catch (error) {
      encodeErrors.set(i, error instanceof Error ? error.message : String(error));
      return new Uint8Array(0);
    }
  });
  javaSaw = await describeInJava(harness, frames);
});
after(() => harness.close());

describe("hessian ts-to-java - Java reads what we write", () => {
  it("hessian ts-to-java - case names are unique", () => {
    const names = TS_TO_JAVA_CASES.map((c) => c.name);
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
    );
  });

  it("hessian ts-to-java - every value arrives in Java as the declared Java type and value", () => {
    const failures: string[] = [];
    TS_TO_JAVA_CASES.forEach((c, i) => {
      const actual = encodeErrors.has(i) ? `ENCODE THROWS ${encodeErrors.get(i)}` : (javaSaw[i] ?? "");
      if (actual !== c.expect) {
        failures.push(
          `${c.name}\n    expected: ${c.expect.slice(0, 400)}\n    actual:   ${actual.slice(0, 400)}`,
        );
      }
    });
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${TS_TO_JAVA_CASES.length} values arrived wrongly in Java:\n  ${failures.join("\n  ")}`,
    );
  });
});
