// PENDING FIX: Java Dubbo 2.7.23's behaviour that our provider does not match yet; each waits for a
// fix on another branch (untyped values keeping their Java type; dispatch by signature). Not matched
// by the *.test.ts runner: run with
//   node --import tsx --test test/interop/java-dubbo-real/java-consumer-to-ts-provider.pending-fix.ts
// and rename to *.test.ts once every case passes.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { caseLine, type JavaConsumerRun, runJavaConsumerCases } from "./java-consumer-run.js";

describe("Java Dubbo 2.7.23 consumer to our provider (pending fixes)", () => {
  let run: JavaConsumerRun;
  before(async () => {
    run = await runJavaConsumerCases("2.7");
  });

  for (const way of ["direct", "registry"] as const) {
    it(`java 2.7 consumer (${way}) - untyped values ($echo, Object parameters) keep their Java type`, () => {
      for (const name of ["$echo.long", "echoObject.long", "echoObject.bigdecimal"]) {
        assert.equal(caseLine(run[way], name).got, "same", name);
      }
    });

    it(`java 2.7 consumer (${way}) - overloads are dispatched by their parameter types`, () => {
      assert.equal(caseLine(run[way], "over.int").result, "I:3");
      assert.equal(caseLine(run[way], "over.String,int").result, "SI:a3");
    });
  }

  it("java 2.7 consumer (direct) - our provider's response attachment reaches Java's RpcContext", () => {
    assert.deepEqual(caseLine(run.direct, "attachments").result, { received: "ping", replied: "pong-ping" });
  });
});
