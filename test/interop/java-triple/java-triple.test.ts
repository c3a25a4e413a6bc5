// Triple in wrapper mode against real Java Dubbo 3.3.6 from Maven Central: a Java Triple consumer
// calls our Triple provider, and our consumer calls a Java Triple provider, directly and through a
// real ZooKeeper; strings, a POJO, longs, a business exception, attachments both ways, $echo.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  BizError,
  createDubbo,
  type DubboApplication,
  getRpcContext,
  runWithRpcContext,
  silentLogger,
} from "../../../src/index.js";
import { useZooKeeper } from "../../registry/zookeeper-fixture.js";
import { freePort, javaLocalHost } from "../java-dubbo-real/java-peer.js";
import {
  type CaseResult,
  runJavaTripleConsumer,
  startJavaTripleProvider,
  TripleGreeter,
} from "./triple-peer.js";

const fixture = useZooKeeper("dubbo-ts-java-triple-");
const { cleanups } = fixture;

async function application(
  name: string,
  registry: string | undefined,
  host?: string,
): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name },
    env: false,
    logger: silentLogger,
    ...(registry === undefined
      ? {}
      : {
          registry: {
            address: registry,
            file: join(fixture.dir, `${name}.cache`),
            parameters: { "register-mode": "interface" },
          },
        }),
    ...(host === undefined ? {} : { protocol: { name: "tri", host, port: 0 } }),
  });
  cleanups.push(() => app.stop());
  return app;
}

/** Our provider of TripleGreeter on Java's address for this machine (Java never dials loopback). */
async function ourProvider(registry: string | undefined): Promise<string> {
  const host = await javaLocalHost();
  const app = await application(
    `ts-triple-provider-${registry === undefined ? "direct" : "zk"}`,
    registry,
    host,
  );
  const exporter = await app.export(
    TripleGreeter,
    {
      greet: (name) => `Hello ${name} from Node`,
      older: (person) => ({ ...person, age: person.age + 1 }),
      add: (a, b) => a + b,
      fail: (why) => {
        throw new BizError(`refused: ${why}`, { javaClass: "java.lang.IllegalStateException" });
      },
      context: (key) => {
        const ctx = getRpcContext();
        ctx.setResponseAttachment("answered-by", "node-provider");
        return String(ctx.getAttachment(key));
      },
    },
    { scope: "remote" },
  );
  return exporter.urls[0]!.address;
}

function assertJavaConsumerCases(results: Map<string, CaseResult>): void {
  const value = (name: string) => {
    const result = results.get(name);
    assert.ok(result !== undefined, `case ${name} ran`);
    assert.equal(result.error, undefined, `case ${name}: ${result.type}: ${result.error}`);
    return result.value;
  };
  assert.equal(value("greet"), "Hello java from Node");
  assert.equal(value("older"), "ann/42");
  assert.equal(value("add"), 42 + 2 ** 40);
  assert.equal(value("context"), "t-7 answered-by=node-provider");
  assert.equal(value("echo"), "ping");
  const fail = results.get("fail");
  assert.equal(fail?.type, "java.lang.IllegalStateException", JSON.stringify(fail));
  assert.match(String(fail?.error), /refused: no/);
}

async function assertOurConsumerCalls(app: DubboApplication, options: { url?: string }): Promise<void> {
  const stub = await app.refer(TripleGreeter, { ...options, timeoutMs: 5000, retries: 0, check: false });
  let greeting: string | undefined;
  for (let i = 0; i < 100 && greeting === undefined; i++) {
    greeting = await stub.greet("node").catch(() => undefined);
    if (greeting === undefined) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(greeting, "Hello node from Java");
  assert.deepEqual({ ...(await stub.older({ name: "bob", age: 9 })) }, { name: "bob", age: 10 });
  assert.equal(await stub.add(2, 40 + 2 ** 40), 42 + 2 ** 40);
  await assert.rejects(stub.fail("no"), (error: unknown) => {
    assert.ok(error instanceof BizError, String(error));
    assert.equal(error.javaClass, "java.lang.IllegalStateException");
    assert.match(error.message, /refused: no/);
    return true;
  });
  const answer = await runWithRpcContext(async (ctx) => {
    ctx.setAttachment("trace-id", "t-9");
    const value = await stub.context("trace-id");
    return { value, answeredBy: ctx.getReceivedAttachment("answered-by") };
  });
  assert.deepEqual(answer, { value: "t-9", answeredBy: "java-provider" });
  assert.equal(await stub.$echo("ping"), "ping");
}

describe("Triple interop with Java Dubbo 3.3.6 (wrapper mode)", () => {
  test("java triple - a Java Triple consumer calls our Triple provider directly", async () => {
    const address = await ourProvider(undefined);
    assertJavaConsumerCases(await runJavaTripleConsumer(`tri://${address}`));
  });

  test("java triple - a Java Triple consumer finds our Triple provider through ZooKeeper", async () => {
    const registry = `zookeeper://${fixture.zk.connectString}`;
    await ourProvider(registry);
    assertJavaConsumerCases(await runJavaTripleConsumer(registry));
  });

  test("java triple - our consumer calls a Java Triple provider directly", async () => {
    const host = await javaLocalHost();
    const port = await freePort(host);
    const java = await startJavaTripleProvider("-", host, port);
    cleanups.push(() => java.stop());
    const app = await application("ts-triple-consumer-direct", undefined);
    await assertOurConsumerCalls(app, { url: `tri://${host}:${port}` });
  });

  test("java triple - our consumer finds a Java Triple provider through ZooKeeper", async () => {
    // Its own ZooKeeper root, so our provider of the earlier case is not a candidate.
    const registry = `zookeeper://${fixture.zk.connectString}?group=java-triple-provider`;
    const host = await javaLocalHost();
    const port = await freePort(host);
    const java = await startJavaTripleProvider(registry, host, port);
    cleanups.push(() => java.stop());
    const app = await application("ts-triple-consumer-zk", registry);
    await assertOurConsumerCalls(app, {});
  });
});
