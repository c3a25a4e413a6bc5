// A real Java Dubbo 2.7.23 consumer (our Java program on Dubbo's plain API) calls our provider
// directly and through a real ZooKeeper (Java 3.3.6: java-3.3-interface-mode.test.ts): every row of the README's type table, exceptions
// with their cause, attachments, generic calls with POJOs as maps, $echo, and the timeout and
// retries our provider registers.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import {
  caseLine,
  itServesJavaConsumer,
  type JavaConsumerRun,
  runJavaConsumerCases,
} from "./java-consumer-run.js";
import { DUBBO_RELEASE } from "./java-peer.js";

describe(`Java Dubbo ${DUBBO_RELEASE["2.7"]} consumer to our provider`, () => {
  let run: JavaConsumerRun;
  before(async () => {
    run = await runJavaConsumerCases("2.7");
  });

  for (const way of ["direct", "registry"] as const) {
    itServesJavaConsumer(`java 2.7 consumer (${way})`, () => run[way]);
  }

  it("java 2.7 consumer (registry) - our provider's response attachment reaches Java's RpcContext", () => {
    assert.deepEqual(caseLine(run.registry, "attachments").result, {
      received: "ping",
      replied: "pong-ping",
    });
  });

  it("java 2.7 consumer (direct) - Java's RpcContext misses the response attachment, as with a Java provider", () => {
    // A Java reference to a single url= has no cluster invoker, so nothing copies the response's
    // attachments into RpcContext.getServerContext(); ts-consumer-to-java-provider.test.ts shows the
    // same null from Java's own provider.
    assert.deepEqual(caseLine(run.direct, "attachments").result, { received: "ping", replied: null });
  });

  it("java 2.7 consumer (registry) - Java honours the timeout=3000 our provider registers", () => {
    assert.equal(caseLine(run.registry, "registered.timeout").result, "slept 1500");
  });

  it("java 2.7 consumer (registry) - Java honours sleepCounted.retries=0 and its 300 ms timeout", () => {
    assert.deepEqual(caseLine(run.registry, "registered.retries").result, {
      outcome: "RpcException",
      calls: 1,
    });
  });
});
