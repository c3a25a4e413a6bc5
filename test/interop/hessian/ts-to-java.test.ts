// TS → Java: our bytes, read by Caucho Hessian configured like Dubbo's hessian-lite, arrive as the
// Java types the contract names (List<User> as ArrayList of com.foo.User, BigDecimal exact, longs
// beyond 2^53 exact, a JS Error as a Throwable with its message).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { javaReadMismatches } from "./conformance.js";
import { createHarnessRun } from "./java-harness.js";
import { TS_TO_JAVA_CASES } from "./ts-to-java-cases.js";

const harness = createHarnessRun();
let failures: string[] = [];

before(async () => {
  failures = await javaReadMismatches(harness);
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
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${TS_TO_JAVA_CASES.length} values arrived wrongly in Java:\n  ${failures.join("\n  ")}`,
    );
  });
});
