// One Java consumer JVM runs every case against our provider, directly and through ZooKeeper; the
// test files assert on its lines.
import assert from "node:assert/strict";
import { it } from "node:test";
import { freePort, startZooKeeper } from "../../../scripts/zookeeper.mjs";
import { startTsProvider } from "./interop-contract.js";
import { type DubboVersion, javaLocalHost, type PeerLine, startJavaConsumer } from "./java-peer.js";

export interface JavaConsumerRun {
  readonly direct: readonly PeerLine[];
  readonly registry: readonly PeerLine[];
}

/** Starts ZooKeeper, our provider and a Java consumer; runs the cases both ways; stops everything. */
export async function runJavaConsumerCases(version: DubboVersion): Promise<JavaConsumerRun> {
  const zk = await startZooKeeper();
  const host = await javaLocalHost();
  const port = await freePort();
  const app = await startTsProvider(`zookeeper://${zk.connectString}`, host, port).catch(async (e) => {
    await zk.stop();
    throw e;
  });
  const consumer = startJavaConsumer(version);
  try {
    return {
      direct: await consumer.command(`cases dubbo://${host}:${port}`),
      registry: await consumer.command(`cases zookeeper://${zk.connectString}`),
    };
  } finally {
    await consumer.stop();
    await app.stop();
    await zk.stop();
  }
}

/** The line of one case; throws listing what Java printed when the case is missing. */
export function caseLine(lines: readonly PeerLine[], name: string): PeerLine {
  const line = lines.find((l) => l.case === name);
  if (line === undefined)
    throw new Error(`Java printed no case ${name}; it printed ${JSON.stringify(lines)}`);
  return line;
}

function echoes(lines: readonly PeerLine[]): PeerLine[] {
  return lines.filter((l) => typeof l.sent === "string");
}

/**
 * The cases a Java consumer (`label` names it and the way it found our provider) passes against our
 * provider: the type table, $echo, an exception with its cause, generic calls, the request's
 * attachment. `lines` are what its `cases` command printed.
 */
export function itServesJavaConsumer(label: string, lines: () => readonly PeerLine[]): void {
  it(`${label} - every type-table value comes back as the same Java value`, () => {
    // The echoes include $echo and echoObject(Object) of a Long and a BigDecimal: untyped, they
    // keep the Java type they were sent as.
    for (const name of ["$echo.long", "echoObject.long", "echoObject.bigdecimal"]) caseLine(lines(), name);
    assert.ok(echoes(lines()).length >= 50, `Java ran the type table: ${JSON.stringify(lines())}`);
    assert.deepEqual(
      echoes(lines()).filter((l) => l.got !== "same" || l.error !== undefined),
      [],
    );
  });

  it(`${label} - a business exception arrives with its class, message and cause`, () => {
    assert.deepEqual(caseLine(lines(), "fail").error, {
      class: "java.lang.IllegalStateException",
      message: "boom",
      causeClass: "java.lang.IllegalArgumentException",
      causeMessage: "root: boom",
    });
  });

  it(`${label} - GenericService.$invoke sends and gets POJOs as maps`, () => {
    // Java's own provider answers the long field id as a Long, which the Java peer prints as "7".
    assert.deepEqual(caseLine(lines(), "generic.echoUser").result, {
      class: "com.foo.User",
      id: "7",
      name: "gen",
      tags: ["g"],
    });
    assert.equal(caseLine(lines(), "generic.echoLong").result, "9007199254740993");
    // A small long result on its own is still a Long (printed as a string), as Java's provider answers.
    assert.equal(caseLine(lines(), "generic.echoLong.5").result, "5");
  });

  it(`${label} - the request's attachment reaches our provider`, () => {
    assert.equal((caseLine(lines(), "attachments").result as { received: unknown }).received, "ping");
  });

  it(`${label} - overloads of over() are dispatched by their parameter types`, () => {
    assert.equal(caseLine(lines(), "over.String").result, "S:a");
    assert.equal(caseLine(lines(), "over.int").result, "I:3");
    assert.equal(caseLine(lines(), "over.String,int").result, "SI:a3");
  });
}
