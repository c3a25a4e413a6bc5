// Our consumer (DubboInvoker from createDubboProtocol, through the consumer filter chain) calls a
// Java provider of our own that serves raw Dubbo 2 frames with Caucho Hessian; we assert on the
// results and on what Java decoded from our requests.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  BizError,
  Code,
  createInvocation,
  defineService,
  type Invoker,
  java,
  RpcError,
  silentLogger,
  Url,
} from "../../../src/core/index.js";
import { createFilterExtensionPoint, wrapProtocolWithFilters } from "../../../src/filter/index.js";
import { createDubboProtocol, type DubboProtocol } from "../../../src/protocol/dubbo/index.js";
import { createStub } from "../../../src/proxy/index.js";
import type { Logger } from "../../../src/transport/index.js";
import { runExampleConsumer } from "../dubbo-js/example-processes.js";
import {
  DEMO_SERVICE,
  DemoService,
  FAIL_CLASS,
  USER_SERVICE,
  UserService,
} from "../dubbo-js/fixture-provider.js";
import {
  compileJavaDubboHarness,
  type JavaServer,
  type JavaServerEvent,
  startJavaServer,
} from "./java-dubbo-harness.js";

const quiet: Logger = silentLogger;
/** The id the Java server uses for the heartbeat it sends on each new connection. */
const JAVA_HEARTBEAT_ID = "777000000000";

/** UserService plus a method the Java provider does not have. */
const UserServiceWithMissing = defineService(USER_SERVICE, {
  ...UserService.methods,
  missing: { args: [java.String], returns: java.String },
});

describe("java-dubbo interop: our consumer to a Java provider", () => {
  let server: JavaServer | undefined;
  let protocol: DubboProtocol | undefined;
  let demo: Invoker;
  let users: Invoker;

  // Java prints a request before answering it, but its stdout may reach us after the socket does.
  const requestFor = (method: string): Promise<JavaServerEvent> =>
    server!.waitFor((e) => e.type === "request" && e.method === method, 10_000);

  before(async () => {
    compileJavaDubboHarness();
    server = await startJavaServer();
    protocol = createDubboProtocol({ logger: quiet, shutdownWaitMs: 500 });
    const consumer = wrapProtocolWithFilters(protocol, createFilterExtensionPoint());
    const base = `dubbo://127.0.0.1:${server.port}`;
    // A short heartbeat so the link is idle long enough within the test to send one.
    demo = await consumer.refer(
      Url.parse(`${base}/${DEMO_SERVICE}?interface=${DEMO_SERVICE}&timeout=10000&heartbeat=300`),
    );
    users = await consumer.refer(
      Url.parse(`${base}/${USER_SERVICE}?interface=${USER_SERVICE}&timeout=10000`),
    );
  });

  after(async () => {
    await protocol?.destroy();
    await server?.stop();
  });

  it("java-dubbo - sayHello returns Java's answer; Java decoded a dubbo 2.0.2 request with our descriptor", async () => {
    assert.equal(await createStub(DemoService, demo).sayHello("node"), "Hello node from java");
    const request = await requestFor("sayHello");
    assert.equal(request.dubboVersion, "2.0.2");
    assert.equal(request.path, DEMO_SERVICE);
    assert.equal(request.version, "0.0.0");
    assert.equal(request.descriptor, "Ljava/lang/String;");
    assert.equal(request.serialization, 2);
    assert.equal(request.twoWay, true);
    assert.deepEqual(request.args, ["node"]);
  });

  it("java-dubbo - response attachments from Java reach the result", async () => {
    const result = await demo.invoke(
      createInvocation({
        service: DEMO_SERVICE,
        method: "sayHello",
        args: ["attachments"],
        parameterTypes: [java.String],
        returnType: java.String,
      }),
    );
    assert.equal(result.value, "Hello attachments from java");
    assert.equal(result.attachments.server, "java-harness");
  });

  it("java-dubbo - a com.foo.User argument and result cross as the Java class", async () => {
    const reply = await createStub(UserService, users).greet({ id: 7, name: "ann", tags: ["a"] });
    assert.deepEqual(
      { ...reply, id: Number(reply.id) },
      { id: 8, name: "Hello ann", tags: ["a", "greeted"] },
    );
    const request = await requestFor("greet");
    assert.equal(request.descriptor, "Lcom/foo/User;");
    assert.deepEqual(request.args, [{ $class: "com.foo.User", id: "7", name: "ann", tags: ["a"] }]);
  });

  it("java-dubbo - a List<User> argument and a List<User> result", async () => {
    const stub = createStub(UserService, users);
    assert.deepEqual(
      await stub.names([
        { id: 1, name: "bob", tags: [] },
        { id: 2, name: "cy", tags: ["x"] },
      ]),
      ["bob", "cy"],
    );
    assert.equal((await requestFor("names")).descriptor, "Ljava/util/List;");
    const listed = await stub.listUsers(3);
    assert.deepEqual(
      listed.map((u) => ({ ...u, id: Number(u.id) })),
      [0, 1, 2].map((i) => ({ id: 1000 + i, name: `user-${i}`, tags: [`t${i}`] })),
    );
    assert.equal((await requestFor("listUsers")).descriptor, "I");
  });

  it("java-dubbo - Java's IllegalArgumentException arrives as a BizError with class and message", async () => {
    const error = await createStub(UserService, users)
      .fail("zed")
      .then(
        () => assert.fail("fail() resolved"),
        (e: unknown) => e,
      );
    assert.ok(error instanceof BizError, `expected a BizError, got ${String(error)}`);
    assert.equal(error.javaClass, FAIL_CLASS);
    assert.equal(error.message, "bad user: zed");
  });

  it("java-dubbo - a method Java does not have fails with Java's SERVICE_ERROR message, not a timeout", async () => {
    const error = await createStub(UserServiceWithMissing, users)
      .missing("x")
      .then(
        () => assert.fail("missing() resolved"),
        (e: unknown) => e,
      );
    assert.ok(error instanceof RpcError, `expected an RpcError, got ${String(error)}`);
    assert.notEqual(error.code, Code.DeadlineExceeded);
    assert.match(error.message, /Failed to invoke remote proxy method missing/);
  });

  it("java-dubbo - we answer Java's heartbeat, and ours keep an idle link up past 3x heartbeat", async () => {
    const reply = await server!.waitFor(
      (e) => e.type === "heartbeatReply" && e.id === JAVA_HEARTBEAT_ID,
      10_000,
    );
    assert.equal(reply.status, 20);
    const connections = server!.events.filter((e) => e.type === "connected").length;
    // Idle for more than 3 x heartbeat (300 ms): without heartbeats answered the link would be dropped.
    await sleep(1500);
    assert.ok(
      server!.events.some((e) => e.type === "heartbeat"),
      "Java received no heartbeat from us",
    );
    assert.equal(await createStub(DemoService, demo).sayHello("again"), "Hello again from java");
    assert.equal(server!.events.filter((e) => e.type === "connected").length, connections, "we reconnected");
  });

  it("java-dubbo - the example consumer (a real child process) calls the Java provider", async () => {
    const run = await runExampleConsumer(`dubbo://127.0.0.1:${server!.port}`, "x");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "Hello x from java");
  });
});
