// PENDING: what our consumer does not match against a real Java Dubbo 2.7.23 provider. A Long or
// BigDecimal a generic call returns on its own reaches the caller as a bare JS number or string,
// which has no room for its Java type (only containers carry slot types, core/java/java-slots.ts),
// so passing it on as an Object argument sends an Integer or a String; docs/java-differences.md
// (the row about values returned on their own) says so. It passes only once untyped results carry
// their type (e.g. a Long decoded as a bigint). Not matched by the *.test.ts runner: run with
//   node --import tsx --test test/interop/java-dubbo-real/ts-consumer-to-java-provider.pending-fix.ts
// and move each case into ts-consumer-to-java-provider.test.ts once it passes.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort } from "../../../scripts/zookeeper.mjs";
import { createDubbo, type DubboApplication, type GenericStub } from "../../../src/index.js";
import { INTEROP_SERVICE, InteropService } from "./interop-contract.js";
import { type JavaProvider, javaLocalHost, startJavaProvider } from "./java-peer.js";
import type { InteropStub } from "./ts-consumer-cases.js";

describe("our consumer to a Java Dubbo 2.7.23 provider (pending fixes)", () => {
  let javaProvider: JavaProvider | undefined;
  let app: DubboApplication | undefined;
  let stub: InteropStub;
  let generic: GenericStub;

  before(async () => {
    const port = await freePort();
    javaProvider = await startJavaProvider("2.7", "N/A", port);
    app = await createDubbo({ application: { name: "ts-consumer" }, env: false });
    const url = `dubbo://${await javaLocalHost()}:${port}`;
    stub = await app.refer(InteropService, { url });
    generic = await app.referGeneric(INTEROP_SERVICE, { url });
  });

  after(async () => {
    await app?.stop();
    await javaProvider?.stop();
  });

  // A generic call has no contract: what it returns is decoded untyped, and goes back to Java as an
  // Object parameter of classOf.
  it("java 2.7 provider - a Long received untyped goes back to Java as a Long", async () => {
    const received = await generic.$invoke("echoLong", ["long"], [5]);
    assert.equal(await stub.classOf(received), "java.lang.Long");
  });

  it("java 2.7 provider - a BigDecimal received untyped goes back to Java as a BigDecimal", async () => {
    const received = await generic.$invoke("echoBigDecimal", ["java.math.BigDecimal"], ["1.50"]);
    assert.equal(await stub.classOf(received), "java.math.BigDecimal");
  });
});
