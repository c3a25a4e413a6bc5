// PENDING FIX: Java Dubbo's behaviour that our provider does not match yet; each waits for a fix on
// another branch (untyped values keeping their Java type; dispatch by signature). Not matched by the
// *.test.ts runner: run with
//   node --import tsx --test test/interop/java-dubbo-real/java-consumer-to-ts-provider.pending-fix.ts
// and move each case into the passing files once it passes.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { caseLine, type JavaConsumerRun, runJavaConsumerCases } from "./java-consumer-run.js";
import { DUBBO_RELEASE, type DubboVersion } from "./java-peer.js";

for (const version of ["2.7", "3.3"] as const satisfies readonly DubboVersion[]) {
  describe(`Java Dubbo ${DUBBO_RELEASE[version]} consumer to our provider (pending fixes)`, () => {
    let run: JavaConsumerRun;
    before(async () => {
      run = await runJavaConsumerCases(version);
    });

    for (const way of ["direct", "registry"] as const) {
      it(`java ${version} consumer (${way}) - untyped values ($echo, Object parameters) keep their Java type`, () => {
        for (const name of ["$echo.long", "echoObject.long", "echoObject.bigdecimal"]) {
          assert.equal(caseLine(run[way], name).got, "same", name);
        }
      });

      it(`java ${version} consumer (${way}) - a generic call's POJO keeps its field types (User.id a Long)`, () => {
        // Java's own provider answers id as a Long, which the Java peer prints as "7".
        assert.equal((caseLine(run[way], "generic.echoUser").result as { id: unknown }).id, "7");
      });
    }
  });
}
