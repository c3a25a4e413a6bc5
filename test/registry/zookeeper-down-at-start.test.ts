// A consumer started while ZooKeeper is down. As in Java 2.7.23 (its ZooKeeper client throws
// "zookeeper not connected" from the registry's constructor), the default check=true fails the
// start after the registry's `timeout`, cache file or not; check=false serves the cached providers
// (Java fails there too) and recovers once ZooKeeper is back. Either way the log says so in one
// line per fact, never with a stack trace.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { DemoService } from "../../examples/demo-service.js";
import { createDubbo, type DubboApplication, silentLogger } from "../../src/index.js";
import { waitFor } from "./kit.js";
import { useZooKeeper } from "./zookeeper-fixture.js";

const fixture = useZooKeeper("dubbo-ts-zk-down-");
const CONSUMERS = "/dubbo/org.apache.dubbo.demo.DemoService/consumers";

/** Every warn/info call, with whether it carried an error object (which a console prints as a stack). */
const logged: Array<{ message: string; withError: boolean }> = [];

async function application(name: string, check: boolean, cacheFile: string): Promise<DubboApplication> {
  const app = await createDubbo({
    application: { name },
    env: false,
    logger: {
      ...silentLogger,
      warn: (message: string, error?: unknown) =>
        void logged.push({ message, withError: error !== undefined }),
      info: (message: string) => void logged.push({ message, withError: false }),
    },
    registry: { address: `zookeeper://${fixture.zk.connectString}`, file: cacheFile, timeoutMs: 1000, check },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
  });
  fixture.cleanups.push(() => app.stop());
  return app;
}

test("zookeeper down at start - check=true fails in one clear line, check=false serves the cache file and recovers", async () => {
  const cacheFile = join(fixture.dir, "consumer.cache");
  const provider = await application("down-provider", true, join(fixture.dir, "provider.cache"));
  await provider.export(DemoService, { sayHello: (name: string) => `Hello ${name}` }, { scope: "remote" });
  const first = await application("down-consumer", true, cacheFile);
  const warm = await first.refer(DemoService, {});
  assert.equal(await warm.sayHello("warm"), "Hello warm");
  await first.stop();

  await fixture.zk.halt();
  try {
    const strict = await application("strict-consumer", true, cacheFile);
    await assert.rejects(
      strict.refer(DemoService, {}),
      (e: unknown) =>
        e instanceof Error &&
        e.message.includes(`could not connect to ZooKeeper ${fixture.zk.connectString} within 1000 ms`) &&
        e.message.includes("timeout"),
    );

    logged.length = 0;
    const lenient = await application("lenient-consumer", false, cacheFile);
    const demo = await lenient.refer(DemoService, {});
    assert.equal(await demo.sayHello("offline"), "Hello offline");
    assert.ok(
      logged.some((l) => /using \d+ URLs from the cache file/.test(l.message)),
      logged.map((l) => l.message).join(" | "),
    );
    assert.deepEqual(
      logged.filter((l) => l.withError).map((l) => l.message),
      [],
      "no stack traces for a registry that is down",
    );
  } finally {
    await fixture.zk.start();
  }
  await waitFor("the lenient consumer registered once ZooKeeper is back", async () =>
    ((await fixture.inspector.getChildren(CONSUMERS)) ?? []).some((c) =>
      decodeURIComponent(c).includes("application=lenient-consumer&"),
    ),
  );
});
