// Hessian 2 against the hessian-lite Java Dubbo really runs (bundled in dubbo-2.7.23.jar; the
// com.alibaba:hessian-lite jar of Dubbo 3.3.6): every fixture it writes decodes to the expected JS
// value, and every value we write arrives in Java as the expected Java value. The fixture lists are
// the ones the Caucho harness (../hessian/) checks.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fixtureMismatches, javaReadMismatches } from "../hessian/conformance.js";
import { createHarnessRun, readFixtures } from "../hessian/java-harness.js";
import { DUBBO_RELEASE, type DubboVersion, hessianLitePeer } from "./java-peer.js";

/**
 * Where a real hessian-lite misreads, whoever wrote the bytes. hessian-lite 4.0.4 (Dubbo 3.3.6) reads
 * a `float` field of a POJO as 0.0 and corrupts the field declared after it, for bytes Java itself
 * wrote too (checked by hand with the Java-written "primitives" fixture): the float field of the
 * Primitives case is hessian-lite's, not ours.
 */
const HESSIAN_LITE_MISREADS: Readonly<Record<DubboVersion, readonly string[]>> = {
  "2.7": [],
  "3.3": ["Primitives (every field kind)"],
};

for (const version of ["2.7", "3.3"] as const satisfies readonly DubboVersion[]) {
  describe(`hessian-lite of Dubbo ${DUBBO_RELEASE[version]}`, () => {
    const harness = createHarnessRun(hessianLitePeer(version));
    let decodeFailures: string[] = [];
    let javaFailures: string[] = [];

    before(async () => {
      decodeFailures = fixtureMismatches(await readFixtures(harness));
      javaFailures = await javaReadMismatches(harness);
    });
    after(() => harness.close());

    it(`hessian-lite ${version} - every value hessian-lite writes decodes to the expected JS value`, () => {
      assert.deepEqual(decodeFailures, []);
    });

    it(`hessian-lite ${version} - every value we write arrives in hessian-lite as the expected Java value`, () => {
      assert.deepEqual(
        javaFailures.filter(
          (failure) => !HESSIAN_LITE_MISREADS[version].includes(failure.split("\n")[0] ?? ""),
        ),
        [],
      );
    });

    it(`hessian-lite ${version} - its known misreads are still exactly the listed ones`, () => {
      assert.deepEqual(
        javaFailures.map((failure) => failure.split("\n")[0]),
        HESSIAN_LITE_MISREADS[version],
      );
    });
  });
}
