// What the contract's types promise holds at run time, over a real dubbo connection on loopback:
// named parameters travel in Java's order, a java.long arrives as a number and a java.longBig as
// a bigint, and a long too large for the number a contract declared fails the call, naming the fix.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDubbo, defineService, java } from "dubbo-ts";

const INTERFACE = "com.foo.Counter";
const UserType = java.Class("com.foo.User", { id: java.long, name: java.String });

/** The provider's view: it may count beyond 2^53. */
const ProviderCounter = defineService(INTERFACE, {
  describe: { args: (name = java.String, times = java.int) => [name, times], returns: java.String },
  count: { args: [], returns: java.longBig },
  find: { args: (id = java.long) => [id], returns: UserType },
});
/** A consumer that declared count as a number (as a Java `long` with small values usually is). */
const ConsumerCounter = defineService(INTERFACE, {
  describe: { args: (name = java.String, times = java.int) => [name, times], returns: java.String },
  count: { args: [], returns: java.long },
  find: { args: (id = java.long) => [id], returns: UserType },
});

describe("typed contract over TCP", () => {
  it("contract - named parameters, long flavours and $class arrive as their types say", async () => {
    let total = 5n;
    await using provider = await createDubbo({
      application: { name: "typed-provider" },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
      env: false,
    });
    const exported = await provider.export(
      ProviderCounter,
      {
        describe: (name, times) => `${name} x${times}`,
        count: () => total,
        find: (id) => ({ id, name: `user ${id}` }),
      },
      { scope: "remote" },
    );
    await using consumer = await createDubbo({ application: { name: "typed-consumer" }, env: false });
    const counter = await consumer.refer(ConsumerCounter, {
      url: `dubbo://127.0.0.1:${exported.urls[0]!.port}`,
      retries: 0,
    });

    assert.equal(await counter.describe("apples", 3), "apples x3");
    const small: number = await counter.count();
    assert.equal(small, 5);
    const user = await counter.find(7);
    assert.deepEqual({ ...user }, { id: 7, name: "user 7" });
    assert.equal(user.$class, "com.foo.User");

    total = 2n ** 53n + 1n;
    await assert.rejects(
      counter.count(),
      /9007199254740993 does not fit a JavaScript number exactly; declare it java\.longBig/,
    );
    const big = await consumer.refer(ProviderCounter, {
      url: `dubbo://127.0.0.1:${exported.urls[0]!.port}`,
      retries: 0,
    });
    assert.equal(await big.count(), 2n ** 53n + 1n);
  });
});
