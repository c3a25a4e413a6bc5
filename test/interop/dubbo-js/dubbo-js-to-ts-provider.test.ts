// The npm apache-dubbo-js 3.0.0-rc6 consumer, in its direct mode, calls our dubbo provider: the
// example provider as a real child process, and an in-process fixture with a richer contract.
// dubbo-js sends typed args (js-to-java), a `timeout` attachment in seconds, and never answers
// heartbeats.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createDubboJsConsumer, type DubboJsConsumer, type DubboJsReply, java } from "./dubbo-js-client.js";
import { type ExampleProvider, startExampleProvider } from "./example-processes.js";
import {
  DEMO_SERVICE,
  FAIL_CLASS,
  type FixtureProvider,
  startFixtureProvider,
  USER_SERVICE,
} from "./fixture-provider.js";

const demoMethods = { sayHello: (name: string) => [java.String(name)] };

function user(id: number, name: string, tags: string[]) {
  return java.combine("com.foo.User", { id: java.long(id), name, tags: java.List(tags) });
}

const userMethods = {
  greet: (id: number, name: string, tags: string[]) => [user(id, name, tags)],
  names: (users: [number, string][]) => [java.List(users.map(([id, name]) => user(id, name, [])))],
  listUsers: (n: number) => [java.int(n)],
  fail: (name: string) => [java.String(name)],
};

function ok(reply: DubboJsReply): unknown {
  assert.equal(reply.err, null, `dubbo-js got an error: ${reply.err?.name}: ${reply.err?.message}`);
  return reply.res;
}

describe("dubbo-js interop: apache-dubbo-js consumer to our example provider (child process)", () => {
  let provider: ExampleProvider | undefined;
  let consumer: DubboJsConsumer | undefined;

  before(async () => {
    provider = await startExampleProvider();
    consumer = createDubboJsConsumer("127.0.0.1", provider.port);
  });

  after(async () => {
    consumer?.close();
    await provider?.stop();
  });

  it("dubbo-js - sayHello on the example provider returns Hello <name>", async () => {
    const demo = consumer!.proxy(DEMO_SERVICE, demoMethods, { timeoutSeconds: 5 });
    assert.equal(ok(await demo.sayHello("dubbo-js")), "Hello dubbo-js");
  });

  it("dubbo-js - its own heartbeat frame (id 0) is answered and the link keeps serving", async () => {
    consumer!.sendHeartbeat();
    const demo = consumer!.proxy(DEMO_SERVICE, demoMethods, { timeoutSeconds: 5 });
    assert.equal(ok(await demo.sayHello("after-heartbeat")), "Hello after-heartbeat");
  });

  it("dubbo-js - the service version 0.0.0 means no version", async () => {
    const demo = consumer!.proxy(DEMO_SERVICE, demoMethods, { version: "0.0.0", timeoutSeconds: 5 });
    assert.equal(ok(await demo.sayHello("zero")), "Hello zero");
  });
});

describe("dubbo-js interop: apache-dubbo-js consumer to a richer in-process provider", () => {
  let provider: FixtureProvider | undefined;
  let consumer: DubboJsConsumer | undefined;

  before(async () => {
    provider = await startFixtureProvider();
    consumer = createDubboJsConsumer("127.0.0.1", provider.port);
  });

  after(async () => {
    consumer?.close();
    await provider?.stop();
  });

  it("dubbo-js - a com.foo.User argument is decoded and a User comes back", async () => {
    const users = consumer!.proxy(USER_SERVICE, userMethods, { timeoutSeconds: 5 });
    const reply = ok(await users.greet(7, "ann", ["a", "b"]));
    assert.deepEqual(reply, { id: 8, name: "Hello ann", tags: ["a", "b", "greeted"] });
  });

  it("dubbo-js - a List<User> argument and a List<User> result", async () => {
    const users = consumer!.proxy(USER_SERVICE, userMethods, { timeoutSeconds: 5 });
    assert.deepEqual(
      ok(
        await users.names([
          [1, "bob"],
          [2, "cy"],
        ]),
      ),
      ["bob", "cy"],
    );
    assert.deepEqual(ok(await users.listUsers(2)), [
      { id: 1000, name: "user-0", tags: ["t0"] },
      { id: 1001, name: "user-1", tags: ["t1"] },
    ]);
  });

  it("dubbo-js - a provider business exception reaches dubbo-js as an error with class and message", async () => {
    const users = consumer!.proxy(USER_SERVICE, userMethods, { timeoutSeconds: 5 });
    const reply = await users.fail("zed");
    assert.equal(reply.res, null);
    assert.ok(reply.err instanceof Error, `expected an error, got ${JSON.stringify(reply)}`);
    assert.equal(reply.err.name, FAIL_CLASS);
    assert.equal(reply.err.message, "bad user: zed");
  });

  it("dubbo-js - concurrent calls on the one connection all get their own answers", async () => {
    const demo = consumer!.proxy(DEMO_SERVICE, demoMethods, { timeoutSeconds: 5 });
    const names = Array.from({ length: 50 }, (_, i) => `n${i}`);
    const replies = await Promise.all(names.map((n) => demo.sayHello(n)));
    assert.deepEqual(
      replies.map(ok),
      names.map((n) => `Hello ${n}`),
    );
  });
});
